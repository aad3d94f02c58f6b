// The CommandLine module.

// The MetMuseum module.

import FuzzChecks
import Foundation

// Built by scripts/fuzz with libFuzzer (-D ERRAND_FUZZING); otherwise a program that replays the files it is given.
#if ERRAND_FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzDriver.run(.har, data, size)
}

@_cdecl("fuzz_har_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.runLibFuzzer(argc, argv, testOneInput)
}
#else
@main
enum FuzzHAR {
    static func main() {
        exit(FuzzDriver.replay(.har, arguments: Array(CommandLine.arguments.dropFirst())))
    }
}
#endif

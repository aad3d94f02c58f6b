import Foundation

/// Runs a target's check the way the fuzz executables need: for libFuzzer, or over files named on the command line.
public enum FuzzDriver {
    /// Checks one input; a broken promise stops the process so that libFuzzer keeps the input as a crash.
    public static func run(_ target: FuzzTarget, _ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        let violations = target.check(FuzzInput(bytes))
        guard violations.isEmpty else {
            fatalError("\(target.rawValue): " + violations.joined(separator: "; "))
        }
        return 0
    }

    /// Without libFuzzer: checks every file (or every file of every folder) named in `arguments`; exit status 1 when
    /// any input breaks a promise.
    public static func replay(_ target: FuzzTarget, arguments: [String]) -> Int32 {
        var failures = 0
        var count = 0
        for path in arguments {
            for file in files(at: path) {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                count += 1
                let violations = target.check(FuzzInput(Array(data)))
                if !violations.isEmpty {
                    failures += 1
                    print("\(file): " + violations.joined(separator: "; "))
                }
            }
        }
        print("\(target.rawValue): \(count) inputs, \(failures) failing")
        return failures == 0 ? 0 : 1
    }

    private static func files(at path: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return [] }
        guard isFolder.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.sorted().map { path + "/" + $0 }
    }
}

#if ERRAND_FUZZING
/// libFuzzer's entry for programs that keep their own `main` (SwiftPM names an executable's entry `<module>_main`).
@_silgen_name("LLVMFuzzerRunDriver")
private func llvmFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

extension FuzzDriver {
    /// Hands the process over to libFuzzer, which calls `testOneInput` for every input it tries.
    public static func runLibFuzzer(
        _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
        _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt {
        var count = argc
        var arguments = argv
        return llvmFuzzerRunDriver(&count, &arguments, testOneInput)
    }
}
#endif

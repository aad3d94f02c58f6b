import Errand
import Foundation

/// The soak under faults: see `SoakOptions.usage`.
@main
enum Soak {
    static func main() async {
        let options: SoakOptions
        do {
            options = try SoakOptions.parse(Array(CommandLine.arguments.dropFirst()))
        } catch let error as UsageError {
            if let message = error.message { FileHandle.standardError.write(Data("errand-soak: \(message)\n".utf8)) }
            print(SoakOptions.usage)
            exit(error.message == nil ? 0 : 2)
        } catch {
            exit(2)
        }
        // The runtime opens its own descriptors on first use (the dispatch event loop, timers): let it do so first.
        try? await Task.sleep(for: .milliseconds(10))
        let descriptorsBefore = ProcessProbe.openDescriptors() ?? -1
        let targetsBefore = Set(ProcessProbe.descriptorTargets())
        let run = await SoakRun.perform(options)
        // The transport's loop thread closes its connections when the client is gone; give it a moment.
        var descriptorsAfter = ProcessProbe.openDescriptors() ?? -1
        let deadline = ContinuousClock.now + .seconds(3)
        while descriptorsAfter > descriptorsBefore, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
            descriptorsAfter = ProcessProbe.openDescriptors() ?? -1
        }
        if descriptorsAfter > descriptorsBefore {
            print(
                "descriptors opened and not closed: "
                    + ProcessProbe.descriptorTargets().filter { !targetsBefore.contains($0) }.joined(separator: ", "))
        }
        let passed = SoakReport.print(
            options, run, descriptorsBefore: descriptorsBefore, descriptorsAfter: descriptorsAfter)
        exit(passed ? 0 : 1)
    }
}

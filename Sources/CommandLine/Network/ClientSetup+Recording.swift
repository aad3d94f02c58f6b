import Errand
import Foundation

extension ClientSetup {
    /// The `--verbose` log and the `--record` recording, as the run asks.
    func observers(console: Console) -> [any ExchangeObserver] {
        var observers: [any ExchangeObserver] = isVerbose ? [VerboseLog(console: console)] : []
        if let recorder { observers.append(recorder) }
        return observers
    }

    /// Waits until the recording holds every exchange of the run, and says on stderr when it could not be written.
    public func finishRecording(console: Console) async {
        guard let recorder else { return }
        await recorder.flush()
        if recorder.secrets == .included {
            console.warning(ToolText.sentence("recording.holdsSecrets", ["path": recorder.file.path]))
        }
        if let failure = recorder.writeFailure {
            console.warning(
                ToolText.sentence("recording.notWritten", ["path": recorder.file.path, "problem": "\(failure)"]))
        }
    }

    /// The recorder of `--record FILE.har` and the replay of `--replay FILE.har`.
    static func recording(_ invocation: Invocation) throws(UsageError) -> (HARRecorder?, HARReplayTransport?) {
        let record = invocation.value("record")
        let replay = invocation.value("replay")
        if record?.isEmpty == true || replay?.isEmpty == true {
            throw invocation.usageError(ToolText.sentence("usage.recordNeedsFile"))
        }
        // Secrets in clear only when asked for by a flag of their own, never by --record alone.
        let secrets: HARRecorder.Secrets = invocation.flag("record-secrets") ? .included : .redacted
        if secrets == .included, record == nil {
            throw invocation.usageError(ToolText.sentence("usage.recordSecretsNeedsRecord"))
        }
        var recorder: HARRecorder?
        if let record {
            do {
                recorder = try HARRecorder(file: URL(fileURLWithPath: record), secrets: secrets)
            } catch {
                throw invocation.usageError(
                    ToolText.sentence(
                        "usage.cannotWriteRecording", ["path": record, "reason": error.localizedDescription]))
            }
        }
        guard let replay else { return (recorder, nil) }
        do {
            return (recorder, try HARReplayTransport(file: URL(fileURLWithPath: replay)))
        } catch {
            throw invocation.usageError(
                ToolText.sentence("usage.cannotReadRecording", ["path": replay, "reason": "\(error)"]))
        }
    }
}

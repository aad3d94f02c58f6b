/// A transfer under way: its progress as it happens, and its outcome, thrown as ``ErrandError``.
///
/// ```swift
/// let upload = client.transfer(Request<Data>(method: .post, path: "upload", body: .file(video)))
/// for await update in upload.progress { print(update.bytesSent, "of", update.totalBytesToSend ?? 0) }
/// do {
///     let uploaded = try await upload.value
/// } catch {
///     print(error.userMessage)     // `error` is an ErrandError: no cast
/// }
/// ```
///
/// `async let` and task groups erase a typed error to `any Error`; a transfer keeps it, because its outcome is a value
/// awaited by ``value`` rather than a child task's. The transfer starts when it is made and runs whether or not its
/// progress is read. Cancelling the task that awaits ``value`` cancels the transfer, and so does ``cancel()``; a
/// transfer nobody awaits runs to its end.
public struct Transfer<Value: Sendable>: Sendable {
    /// The transfer's progress; it ends when the transfer does, with the final counts after a success.
    public let progress: TransferProgressStream

    private let outcome: Task<Result<Value, ErrandError>, Never>

    /// Starts `operation`, which reports to `progress`.
    init(
        progress: TransferProgressStream,
        _ operation: @escaping @Sendable () async throws(ErrandError) -> Value
    ) {
        self.progress = progress
        outcome = Task { await Self.run(operation) }
    }

    private static func run(
        _ operation: @Sendable () async throws(ErrandError) -> Value
    ) async -> Result<Value, ErrandError> {
        do {
            return .success(try await operation())
        } catch {
            return .failure(error)
        }
    }

    /// What the transfer returned, once it has ended.
    ///
    /// - Throws: the ``ErrandError`` the transfer failed with; ``ErrandError/cancelled`` after a cancellation.
    public var value: Value {
        get async throws(ErrandError) { try await result.get() }
    }

    /// What the transfer returned or the ``ErrandError`` it failed with, once it has ended.
    ///
    /// A child of a task group returns this rather than throwing, which would turn the error into `any Error`:
    /// `group.addTask { await client.transfer(request).result }`.
    public var result: Result<Value, ErrandError> {
        get async {
            let outcome = self.outcome
            return await withTaskCancellationHandler {
                await outcome.value
            } onCancel: {
                outcome.cancel()
            }
        }
    }

    /// Stops the transfer; ``value`` then throws ``ErrandError/cancelled``.
    public func cancel() {
        outcome.cancel()
    }
}

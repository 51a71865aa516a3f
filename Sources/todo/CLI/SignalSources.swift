import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// Dispatch sources for signals that must never be lost, whenever they arrive.
///
/// On Linux libdispatch reads signals from a signalfd, which sees a signal only while it is
/// blocked, and it registers a source asynchronously, on its manager thread, after `resume()`.
/// The classic recipe (`signal(SIG_IGN)`, then a source) therefore has a window in which a
/// signal is discarded: a Ctrl-C sent just as `todo watch` starts was lost and the watch ran on
/// for ever. Blocking the signals in the calling thread first closes it: a signal that comes
/// before the registration stays pending, and the signalfd reads it once it exists. Threads
/// started later inherit the mask; libdispatch's own threads block signals anyway.
enum SignalSources {
    /// Sources for `signals`, resumed, each calling `handler` with its signal on `queue`.
    /// Keep them alive as long as the signals should be caught; cancel them to stop.
    static func make(
        _ signals: [Int32], queue: DispatchQueue,
        handler: @escaping @Sendable (Int32) -> Void
    ) -> [any DispatchSourceSignal] {
        var set = sigset_t()
        sigemptyset(&set)
        for signalNumber in signals { sigaddset(&set, signalNumber) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        return signals.map { signalNumber in
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler { handler(signalNumber) }
            source.resume()
            return source
        }
    }
}

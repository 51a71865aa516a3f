#if canImport(Glibc)
import Glibc
#endif

/// A pthread mutex, for the little state a dispatch handler shares with the main thread
/// (Foundation's NSLock is not linked into the static `todo`).
final class Lock: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }
    func withLock<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }
}

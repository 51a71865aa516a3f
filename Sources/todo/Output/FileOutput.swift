#if canImport(Glibc)
    import Glibc
#endif

/// Writing a whole file (a manual page, the ui's statistics): created 0644 or truncated.
enum FileOutput {
    static func write(_ text: String, to path: String) throws(CLIError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .failure("cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var text = text
        let failure: Int32? = text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = Glibc.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += count
            }
            return nil
        }
        if let failure { throw .failure("cannot write \(path): \(String(cString: strerror(failure)))") }
    }
}

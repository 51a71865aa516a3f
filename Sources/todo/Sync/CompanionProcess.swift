import TodoInterop
import TodoSync

#if canImport(Glibc)
import Glibc
#endif

/// The `todo-sync` companion, running as a child: one JSON request per line on its stdin, one
/// JSON answer per line on its stdout (the protocol is documented in Sources/todo-sync/main.swift).
///
/// Why a separate program: HTTP and XML need libcurl and libxml2 (and their own dependencies:
/// OpenSSL, nghttp2, ICU...), which cannot be linked into the fully static `todo`, and which
/// `todo add` should not load. Only `todo sync` pays for them, as git-remote-https does for git.
///
/// Threading: one thread at a time; each call blocks until the answer line arrives.
final class CompanionProcess {
    private let pid: pid_t
    private let input: Int32
    private let output: Int32
    private var buffer: [UInt8] = []

    /// The companion's file name; it is looked for beside this executable, then on PATH.
    static let name = "todo-sync"

    /// Starts the companion.
    ///
    /// - Throws: ``SyncError/companion(_:)`` when it is in neither place, or cannot start.
    init() throws(SyncError) {
        let path = Self.locate()
        var toChild: [Int32] = [-1, -1], fromChild: [Int32] = [-1, -1]
        guard pipe(&toChild) == 0 else { throw .companion("cannot create a pipe: \(String(cString: strerror(errno)))") }
        guard pipe(&fromChild) == 0 else {
            close(toChild[0]); close(toChild[1])
            throw .companion("cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        for fd in toChild + fromChild { posix_spawn_file_actions_addclose(&actions, fd) }
        var child: pid_t = 0
        let arguments = [path]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        // posix_spawnp: a bare name is looked up on PATH.
        let status = posix_spawnp(&child, path, &actions, nil, argv, environ)
        close(toChild[0])
        close(fromChild[1])
        guard status == 0 else {
            close(toChild[1]); close(fromChild[0])
            throw .companion("cannot run \(path): \(String(cString: strerror(status)))")
        }
        pid = child
        input = toChild[1]
        output = fromChild[0]
    }

    deinit {
        close(input)  // end of requests: the companion exits
        close(output)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }

    /// `todo-sync` beside this executable (an install puts both in one folder, and so does a
    /// build), else the bare name for a PATH look-up.
    private static func locate() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if length > 0 {
            let executable = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let slash = executable.lastIndex(of: "/") {
                let candidate = executable[..<slash] + "/" + name
                if access(candidate, X_OK) == 0 { return String(candidate) }
            }
        }
        return name
    }

    /// Sends one request (a JSON object's text) and returns the answer.
    ///
    /// - Throws: the error the answer carries (see ``SyncError``), or ``SyncError/companion(_:)``
    ///   when the companion stopped or answered something unreadable.
    func request(_ json: String) throws(SyncError) -> JSONValue {
        let line = Array((json + "\n").utf8)
        var written = 0
        while written < line.count {
            let count = line[written...].withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw .companion("\(Self.name) stopped unexpectedly") }
            written += count
        }
        let answer = try readLine()
        let value: JSONValue
        do { value = try JSONParser.parse(answer) } catch { throw .companion("\(Self.name) answered something unreadable") }
        if let failure = value["error"] { throw Self.error(from: failure) }
        return value
    }

    private func readLine() throws(SyncError) -> [UInt8] {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw .companion("\(Self.name) stopped unexpectedly") }
            buffer += chunk[..<count]
        }
    }

    /// The protocol's `{"kind": ..., "message": ..., "status": ...}` as a ``SyncError``.
    static func error(from value: JSONValue) -> SyncError {
        let message = value["message"]?.stringValue ?? "\(name) failed"
        switch value["kind"]?.stringValue {
        case "unreachable": return .unreachable(message)
        case "auth": return .authenticationFailed(message)
        case "not_found": return .collectionNotFound(message)
        case "no_todo_support": return .noTodoSupport(message)
        case "server": return .server(status: value["status"]?.doubleValue.map { Int($0) } ?? 0, message: message)
        case "password": return .password(message)
        case "bad_response": return .badResponse(message)
        default: return .companion(message)
        }
    }
}

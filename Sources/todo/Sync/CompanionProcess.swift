import SyncProtocol
import TodoInterop
import TodoSync

#if canImport(Glibc)
    import Glibc
#endif

/// The `todo-sync` companion, running as a child: one JSON request per line on its stdin, one
/// JSON answer per line on its stdout, the messages SyncProtocol's (which todo-sync shares).
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
    /// What the companion wrote and was not yet read as an answer.
    private let answers = LineBuffer()
    /// Where the companion runs from: beside this executable.
    let path: String
    /// What its hello says it does beyond version 1's first form; `nil` until its answer to
    /// the hello was read (see ``greeting()``).
    private var capabilities: [String]?

    /// The companion's file name; it is run from the folder of this executable, and from
    /// nowhere else (never from PATH: the two are installed together and speak one version).
    static let name = "todo-sync"

    /// Starts the companion beside this executable and sends it the hello. Its answer, which
    /// says whether it speaks this protocol version, is read before the first request: so the
    /// caller's own work (opening the database) runs while the companion loads libcurl and its
    /// libraries, which is most of an idle `todo sync`'s time.
    ///
    /// - Throws: ``SyncError/companion(_:)`` when it is not there or cannot start; the first
    ///   request throws it when the companion speaks another version.
    init() throws(SyncError) {
        path = try Self.locate()
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        // Close-on-exec: a companion started later (one per collection) must not inherit this
        // one's ends, or this one never reads the end of its requests, and waiting for it to
        // exit waits for ever. (The child's own 0 and 1, made by dup2, stay open.)
        // (pipe2 is not in Glibc's module; no other thread starts a process meanwhile.)
        guard pipe(&toChild) == 0 else { throw .companion("cannot create a pipe: \(String(cString: strerror(errno)))") }
        guard pipe(&fromChild) == 0 else {
            close(toChild[0])
            close(toChild[1])
            throw .companion("cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        for fd in toChild + fromChild { posix_spawn_file_actions_addclose(&actions, fd) }
        var child: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
        defer { for pointer in argv { free(pointer) } }
        let status = posix_spawn(&child, path, &actions, nil, argv, environ)
        close(toChild[0])
        close(fromChild[1])
        guard status == 0 else {
            close(toChild[1])
            close(fromChild[0])
            throw .companion("cannot run \(path): \(String(cString: strerror(status)))")
        }
        pid = child
        input = toChild[1]
        output = fromChild[0]
        try send(.hello)
    }

    deinit {
        close(input)  // end of requests: the companion exits
        close(output)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }

    /// `todo-sync` in the folder of this executable (an install puts both there, and so does a
    /// build), when it is there and may be run.
    private static func locate() throws(SyncError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else {
            throw .companion(
                "cannot tell where todo runs from (/proc/self/exe: \(String(cString: strerror(errno)))), so not where \(name) is"
            )
        }
        let executable = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let folder = executable.lastIndex(of: "/").map { String(executable[..<$0]) } ?? "."
        let candidate = folder + "/" + name
        guard access(candidate, X_OK) == 0 else {
            throw .companion("\(name) is not beside \(executable): reinstall todo")
        }
        return candidate
    }

    /// The companion's answer to the hello sent at its start, read once: one of another version
    /// is named as such before anything else is read of its answers.
    private func greeting() throws(SyncError) -> [String] {
        if let capabilities { return capabilities }
        let answer = try readAnswer()
        if let version = try? HelloAnswer.version(in: answer), version != ProtocolVersion.current {
            throw .companion(
                "\(Self.name) at \(path) speaks protocol \(version); this todo speaks \(ProtocolVersion.current): "
                    + "install todo and todo-sync together")
        }
        let listed = try decode(answer, of: .hello, as: HelloAnswer.self).capabilities
        capabilities = listed
        return listed
    }

    /// Whether the companion's hello listed `capability`.
    func supports(_ capability: Capability) throws(SyncError) -> Bool {
        try greeting().contains(capability.rawValue)
    }

    /// Sends one request and returns its answer, decoded strictly.
    ///
    /// - Throws: the error the answer carries (see ``SyncError/init(_:)``), or
    ///   ``SyncError/companion(_:)`` when the companion stopped or answered something unreadable.
    func request<Answer: ProtocolMessage>(_ request: Request, answer: Answer.Type) throws(SyncError) -> Answer {
        _ = try greeting()
        try send(request)
        return try decode(try readAnswer(), of: request.op, as: Answer.self)
    }

    private func decode<Answer: ProtocolMessage>(_ value: JSONValue, of op: Op, as type: Answer.Type) throws(SyncError)
        -> Answer
    {
        let reply: Reply<Answer>
        do throws(MessageDecodingError) {
            reply = try Reply<Answer>(json: value)
        } catch {
            throw .companion("\(Self.name) answered \"\(op.rawValue)\" unreadably: \(error)")
        }
        switch reply {
        case .answer(let answer): return answer
        case .error(let error): throw SyncError(error)
        }
    }

    /// Writes the request's line.
    private func send(_ request: Request) throws(SyncError) {
        let line = request.line
        var written = 0
        while written < line.count {
            let count = line[written...].withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw .companion("\(Self.name) stopped unexpectedly") }
            written += count
        }
    }

    /// The next answer line, parsed where it lies in the buffer.
    ///
    /// Linear in the answer's length however long it is (a fetch of a large object is one line
    /// of its size): each read appends to the buffer, and only the bytes it brought are
    /// searched for the newline (see ``LineBuffer``).
    private func readAnswer() throws(SyncError) -> JSONValue {
        while true {
            let parsed = answers.nextLine { line in
                Result { () throws(JSONParseError) in try JSONParser.parse(line) }
            }
            switch parsed {
            case .success(let value)?: return value
            case .failure?: throw .companion("\(Self.name) answered something unreadable")
            case nil: break
            }
            let count = answers.fill { space in read(output, space.baseAddress, space.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && errno == ENOMEM { throw .companion("out of memory reading \(Self.name)'s answer") }
            guard count > 0 else { throw .companion("\(Self.name) stopped unexpectedly") }
        }
    }
}

/// Lines out of a byte stream that arrives in pieces (the companion's answers on a pipe), each
/// byte stored once and searched for the newline once, however long the line.
///
/// Why: an answer can be one line of tens of megabytes (a fetched object with a large
/// `DESCRIPTION` or attachment). Searching the whole buffer again after each 64 KiB read, and
/// removing the consumed prefix after each line, made reading such a line quadratic: `todo`
/// took many times as long to read it as the companion took to write it. Here the pending
/// bytes keep their place (a start offset, moved to the front only when the free space runs
/// short and the consumed part is at least as large as what is left), the free space grows by
/// doubling, so a long line is read in ever larger pieces, and the search resumes where the
/// last one stopped.
///
/// A class over `malloc`ed memory rather than a `[UInt8]`: growing it is a `realloc`, which
/// for a large block remaps its pages instead of copying them, and free space is never
/// zero-filled (an array must initialise it: one more pass over every byte of a long line at
/// each growth). Used on one thread.
final class LineBuffer {
    /// `bytes[start..<end]` is pending; `bytes[end..<capacity]` is free space.
    private var bytes: UnsafeMutablePointer<UInt8>?
    private var capacity = 0
    private var start = 0
    private var end = 0
    /// Where the newline search resumes: no newline is in `bytes[start..<searched]`.
    private var searched = 0

    /// The free space offered to a read, at least: the size of a pipe's buffer.
    static let minimumRead = 65_536
    /// A buffer this large is let go once it is empty, so that one huge answer does not keep its
    /// memory for the rest of the run.
    static let retainedCapacity = 1 << 22

    deinit { free(bytes) }

    /// Bytes received and not yet returned in a line.
    var pendingCount: Int { end - start }

    /// Calls `body` with the next whole line (without its `\n`), in place, and consumes it; `nil`
    /// (without calling `body`) when no whole line is pending. The bytes are valid only in `body`.
    func nextLine<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        guard let bytes, searched < end,
            let found = memchr(bytes + searched, Int32(UInt8(ascii: "\n")), end - searched)
        else {
            searched = end
            return nil
        }
        let newline = UnsafeRawPointer(bytes).distance(to: UnsafeRawPointer(found))
        let result = body(UnsafeBufferPointer(start: bytes + start, count: newline - start))
        start = newline + 1
        searched = start
        if start == end {
            start = 0
            end = 0
            searched = 0
            if capacity > Self.retainedCapacity {
                free(bytes)
                self.bytes = nil
                capacity = 0
            }
        }
        return result
    }

    /// Lets `read` write into the free space after the pending bytes and keeps the bytes it says
    /// it wrote; returns what it returned (0 or less: nothing was kept, e.g. `read(2)`'s end of
    /// file or -1), or -1 with `errno` ENOMEM when no memory could be had for the space.
    ///
    /// The space offered is at least ``minimumRead`` bytes, and at least as large as what is
    /// pending: a long line is read in pieces that grow with it.
    func fill(_ read: (UnsafeMutableRawBufferPointer) -> Int) -> Int {
        guard reserveSpace(max(Self.minimumRead, pendingCount)), let bytes else {
            errno = ENOMEM
            return -1
        }
        let count = read(UnsafeMutableRawBufferPointer(start: bytes + end, count: capacity - end))
        if count > 0 { end += min(count, capacity - end) }
        return count
    }

    /// Makes `wanted` bytes free after the pending ones: by moving them to the front when the
    /// consumed part before them is at least as large as they are (so each byte is moved at most
    /// about once over its life), else by doubling the storage. False when memory ran out.
    private func reserveSpace(_ wanted: Int) -> Bool {
        guard capacity - end < wanted else { return true }
        if let bytes, start > 0, start >= pendingCount {
            bytes.update(from: bytes + start, count: pendingCount)
            searched -= start
            end -= start
            start = 0
            if capacity - end >= wanted { return true }
        }
        let grown = max(capacity * 2, end + wanted)
        guard let moved = realloc(bytes, grown) else { return false }
        bytes = moved.assumingMemoryBound(to: UInt8.self)
        capacity = grown
        return true
    }
}

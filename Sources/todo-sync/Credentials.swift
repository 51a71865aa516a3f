import Glibc

/// Who the helper is to the server: a user and password for HTTP Basic or Digest (curl
/// answers the server's challenge), or none.
struct Credentials {
    var user: String?
    var password: String?
    /// With no password found, each source looked in and what it held, in the order tried
    /// (`--password-command (none set up)`, `TODO_SYNC_PASSWORD (not set)`, `~/.netrc (no entry
    /// for dav.example.com)`): what a 401 then says (``HelperError/noPassword(_:tried:)``).
    var triedSources: [String] = []

    /// Resolves the credentials for `url`. No network.
    ///
    /// The user: the one given, else the URL's own, else the login of `$HOME/.netrc`'s entry for
    /// the host (or its `default` entry). The password: from `passwordCommand`, else the URL's
    /// own, else `TODO_SYNC_PASSWORD`, else that netrc entry's. The two are looked up apart, so a
    /// netrc login is never dropped because the password came from elsewhere; a password with no
    /// user anywhere is an error (kind `password`), never a request without credentials. An
    /// unreadable netrc (permissions, a folder, not UTF-8) is an error naming it whenever it is
    /// needed; a missing one is no entry.
    static func resolve(
        url: HTTPURL, user: String?, passwordCommand: String?,
        environment: (String) -> String? = Environment.value
    ) throws(HelperError) -> Credentials {
        var credentials = Credentials(user: user ?? url.user, password: nil)
        var source = ""
        if let passwordCommand {
            credentials.password = try PasswordCommand.run(passwordCommand)
            source = "the password command"
        } else if let password = url.password {
            credentials.password = password
            source = "the URL"
        } else if let password = environment("TODO_SYNC_PASSWORD"), !password.isEmpty {
            credentials.password = password
            source = "TODO_SYNC_PASSWORD"
        }
        if credentials.user == nil || credentials.password == nil, let home = environment("HOME"), !home.isEmpty,
            let text = try Netrc.read(home + "/.netrc")
        {
            if credentials.password == nil {
                if let entry = Netrc.entry(in: text, host: url.host, login: credentials.user) {
                    credentials.user = credentials.user ?? entry.login
                    credentials.password = entry.password
                    source = "~/.netrc"
                }
            } else {
                credentials.user = Netrc.login(in: text, host: url.host)
            }
        }
        if credentials.password == nil {
            credentials.triedSources = [
                "--password-command (none set up)", "TODO_SYNC_PASSWORD (not set)",
                try netrcState(host: url.host, login: credentials.user, environment: environment)
            ]
        }
        if credentials.password != nil && credentials.user == nil {
            throw HelperError(
                .password,
                "a password (from \(source)) but no user for \(url.host): give one with --user at setup, in the URL, or as the login of a ~/.netrc entry for the host"
            )
        }
        return credentials
    }

    /// What `~/.netrc` held for `host` when it gave no password: for a message, read again
    /// (only after no source gave one).
    private static func netrcState(host: String, login: String?, environment: (String) -> String?)
        throws(HelperError) -> String
    {
        guard let home = environment("HOME"), !home.isEmpty else { return "~/.netrc (HOME is not set)" }
        guard let text = try Netrc.read(home + "/.netrc") else { return "~/.netrc (no such file)" }
        if Netrc.login(in: text, host: host) != nil {
            return "~/.netrc (no password for \(host)\(login.map { " as \($0)" } ?? ""))"
        }
        return "~/.netrc (no entry for \(host))"
    }
}

enum Environment {
    static func value(_ name: String) -> String? {
        guard let pointer = getenv(name) else { return nil }
        return String(cString: pointer)
    }
}

enum FileBytes {
    /// Why a file could not be read: the system's words (`Permission denied`, `Is a directory`).
    struct Unreadable: Error {
        let reason: String
    }

    /// The file's bytes (at most `limit`), or `nil` when it does not exist.
    static func read(_ path: String, limit: Int) throws(Unreadable) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw Unreadable(reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw Unreadable(reason: String(cString: strerror(errno))) }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return bytes
    }
}

/// The password command: `/bin/sh -c COMMAND`, its first output line the password. It reads
/// nothing (its stdin is /dev/null, never the protocol) and its stderr is its own. It runs in
/// a process group of its own, which is killed whole when it takes longer than `timeout`.
enum PasswordCommand {
    static let timeout: Int32 = 60  // seconds: time to answer a password manager's prompt
    static let maximumOutput = 65_536

    static func run(_ command: String, timeout: Int32 = timeout) throws(HelperError) -> String {
        var output: [Int32] = [-1, -1]
        guard pipe(&output) == 0, fcntl(output[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(output[1], F_SETFD, FD_CLOEXEC) == 0
        else { throw HelperError(.password, "could not run the password command") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group (the group id is its pid), so that a timeout ends its children too;
        // default signal handling (the helper ignores SIGPIPE).
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup(command), nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let environment = childEnvironment()
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environment)
        close(output[1])
        guard spawned == 0 else {
            close(output[0])
            throw HelperError(.password, "could not run the password command")
        }
        defer { close(output[0]) }

        // Read its output until end of file, or until the shell has exited and its output is
        // drained (a child it left in the background may hold the pipe open), at most `timeout`
        // seconds in all; then the whole process group is killed.
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        deadline.tv_sec += Int(timeout)
        var status: Int32 = 0
        var exited = false
        var timedOut = false
        reading: while true {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let left = (deadline.tv_sec - now.tv_sec) * 1000 + (deadline.tv_nsec - now.tv_nsec) / 1_000_000
            if left <= 0 && !exited {
                timedOut = true
                break
            }
            var poller = pollfd(fd: output[0], events: Int16(POLLIN), revents: 0)
            // Short waits only to notice the shell's exit; its output wakes this at once.
            let ready = poll(&poller, 1, exited ? 0 : Int32(max(1, min(left, 100))))
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if ready == 0 {
                if exited { break reading }
                if waitpid(pid, &status, WNOHANG) == pid { exited = true }
                continue
            }
            let count = buffer.withUnsafeMutableBytes { read(output[0], $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                break
            }
            if count == 0 { break reading }
            if data.count < maximumOutput { data += buffer[..<count] }
        }
        if timedOut { kill(-pid, SIGKILL) }
        if !exited { while waitpid(pid, &status, 0) < 0 && errno == EINTR {} }
        if timedOut {
            throw HelperError(.password, "the password command did not finish within \(timeout) s; stopped")
        }
        let signaled = (status & 0x7f) != 0 && (status & 0x7f) != 0x7f
        let exitStatus = (status >> 8) & 0xff
        guard !signaled, exitStatus == 0 else {
            let how = signaled ? "was killed by signal \(status & 0x7f)" : "exited with status \(exitStatus)"
            throw HelperError(.password, "the password command \(how)")
        }
        var line = data[..<(data.firstIndex(of: UInt8(ascii: "\n")) ?? data.endIndex)]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        let password = String(decoding: line, as: UTF8.self)
        guard !password.isEmpty else { throw HelperError(.password, "the password command printed no password") }
        return password
    }
}

extension PasswordCommand {
    /// The helper's environment without `TODO_SYNC_PASSWORD`: a password never reaches a child
    /// through its environment (the command is there to find one). The pointers are `environ`'s
    /// own, valid until the environment changes (the helper never changes it); `nil`-terminated.
    static func childEnvironment(_ environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ)
        -> [UnsafeMutablePointer<CChar>?]
    {
        var entries: [UnsafeMutablePointer<CChar>?] = []
        var index = 0
        while let entry = environment?[index] {
            if strncmp(entry, "TODO_SYNC_PASSWORD=", 19) != 0 { entries.append(entry) }
            index += 1
        }
        return entries + [nil]
    }
}

/// curl's `.netrc`: `machine HOST login USER password PASS`, `default`, `macdef` (skipped);
/// tokens are separated by any white space and may be double-quoted (with \" \\ \n \t \r).
enum Netrc {
    struct Entry: Equatable {
        var login: String?
        var password: String?
    }

    /// The text of the netrc file at `path`, or `nil` when there is none; an error of kind
    /// `password` naming it when it cannot be read or is not UTF-8.
    static func read(_ path: String) throws(HelperError) -> String? {
        let bytes: [UInt8]?
        do {
            bytes = try FileBytes.read(path, limit: 1 << 20)
        } catch {
            throw HelperError(.password, "cannot read \(path): \(error.reason)")
        }
        guard let bytes else { return nil }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw HelperError(.password, "cannot read \(path): it is not UTF-8 text")
        }
        return text
    }

    /// The first entry for `host` (or else the `default` one) that has a password, and whose
    /// login is `login` when both are known.
    static func entry(in text: String, host: String, login: String?) -> Entry? {
        first(in: text, host: host) { $0.password != nil && (login == nil || $0.login == nil || $0.login == login) }
    }

    /// The login of the first entry for `host` that has one (or else of the `default` entry):
    /// the user when none was given, whatever gives the password.
    static func login(in text: String, host: String) -> String? {
        first(in: text, host: host) { $0.login != nil }?.login
    }

    /// The first entry for `host` that `fits`, or else the first `default` entry that does.
    private static func first(in text: String, host: String, where fits: (Entry) -> Bool) -> Entry? {
        var machines: [(host: String?, entry: Entry)] = []  // host nil: default
        var tokens = tokenize(text)[...]
        while let token = tokens.popFirst() {
            switch token {
            case "machine":
                guard let name = tokens.popFirst() else { break }
                machines.append((name, Entry()))
            case "default":
                machines.append((nil, Entry()))
            case "login":
                if let value = tokens.popFirst(), !machines.isEmpty { machines[machines.count - 1].entry.login = value }
            case "password":
                if let value = tokens.popFirst(), !machines.isEmpty {
                    machines[machines.count - 1].entry.password = value
                }
            case "account":
                _ = tokens.popFirst()
            default:
                break
            }
        }
        if let match = machines.first(where: { $0.host?.lowercased() == host.lowercased() && fits($0.entry) }) {
            return match.entry
        }
        return machines.first(where: { $0.host == nil && fits($0.entry) })?.entry
    }

    /// The tokens of a netrc file, with `macdef` bodies (up to an empty line) left out.
    static func tokenize(_ text: String) -> [String] {
        var tokens: [String] = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var index = 0
        while index < lines.count {
            let line = lines[index]
            index += 1
            var current = ""
            var inToken = false
            var quoted = false
            var escaped = false
            var lineTokens: [String] = []
            for character in line {
                if quoted {
                    if escaped {
                        switch character {
                        case "n": current.append("\n")
                        case "t": current.append("\t")
                        case "r": current.append("\r")
                        default: current.append(character)
                        }
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        quoted = false
                    } else {
                        current.append(character)
                    }
                } else if character == " " || character == "\t" || character == "\r" {
                    if inToken {
                        lineTokens.append(current)
                        current = ""
                        inToken = false
                    }
                } else if character == "\"" && !inToken {
                    inToken = true
                    quoted = true
                } else if character == "#" && !inToken && lineTokens.isEmpty {
                    break  // a comment line
                } else {
                    inToken = true
                    current.append(character)
                }
            }
            if inToken { lineTokens.append(current) }
            tokens += lineTokens
            if lineTokens.first == "macdef" {
                tokens.removeLast(lineTokens.count)
                while index < lines.count && !lines[index].allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) {
                    index += 1
                }
            }
        }
        return tokens
    }
}

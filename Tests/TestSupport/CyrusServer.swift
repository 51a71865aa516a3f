import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Cyrus IMAP's CalDAV server (Debian's cyrus-caldav: the server Fastmail runs), started by a
/// test: its `master` in the foreground with its own imapd.conf and cyrus.conf in a temporary
/// folder, serving HTTP (`httpmodules: caldav`) on a free port of 127.0.0.1 and LMTP on a socket
/// in the folder; users and passwords in a sasldb there. Stopped by pid when released (master
/// stops its services on SIGTERM; any left are killed by pid too).
///
/// Cyrus's services refuse to run as root: as root, the folder is given to the `cyrus` user the
/// package makes and master drops to it; otherwise everything runs as the current user. A user's
/// calendars are made by Cyrus at its first CalDAV request once the user has an INBOX, which a
/// message delivered over LMTP creates (`autocreate_post`). Cyrus logs to syslog only.
///
/// A missing binary is an error, not a skip: scripts/setup installs cyrus-caldav and sasl2-bin.
public final class CyrusServer: @unchecked Sendable {
    static let programs = "/usr/lib/cyrus/bin"
    static let saslpasswd2 = "/usr/sbin/saslpasswd2"

    public let port: Int
    public let folder: TemporaryFolder
    public let users: [String: String]
    private let process: Process
    private var stopped = false

    /// `http://127.0.0.1:<port>`.
    public var base: String { "http://127.0.0.1:\(port)" }

    /// The calendar Cyrus makes for `user` (display name "personal"; VEVENT and VTODO).
    public func defaultCalendarURL(_ user: String) -> String { base + "/dav/calendars/user/\(user)/Default/" }

    /// What master printed (Cyrus itself logs to syslog).
    public var log: String { String(decoding: folder.contents(folder.file("master.log")) ?? Data(), as: UTF8.self) }

    /// Starts Cyrus with `users` (name: password), each with an INBOX; tries another port when
    /// it does not come up (a clash).
    public static func start(users: [String: String] = ["alice": "secret"]) throws -> CyrusServer {
        for path in ["\(programs)/master", "\(programs)/httpd", "\(programs)/deliver", saslpasswd2]
        where !FileManager.default.isExecutableFile(atPath: path) {
            throw ServerDidNotStart(
                description: "\(path) is missing: scripts/setup installs it (Debian packages cyrus-caldav, sasl2-bin)")
        }
        var lastError: Error?
        for _ in 0..<3 {
            let folder = TemporaryFolder()
            let port = try CalDAVServer.freePort()
            let process = try launch(in: folder, port: port, users: users)
            let server = CyrusServer(port: port, folder: folder, users: users, process: process)
            let deadline = Date(timeIntervalSinceNow: 10)
            while process.isRunning && !CalDAVServer.portAnswers(port) && Date() < deadline { usleep(10_000) }
            if process.isRunning && CalDAVServer.portAnswers(port) {
                for user in users.keys.sorted() { try server.createInbox(user) }
                return server
            }
            lastError = ServerDidNotStart(
                description:
                    "Cyrus master on port \(port) did not start (it logs to syslog): \(server.log.suffix(1_000))")
            server.stop()
        }
        throw lastError ?? ServerDidNotStart(description: "Cyrus did not start")
    }

    /// Writes the configuration and the sasldb into `folder`, and starts master.
    private static func launch(in folder: TemporaryFolder, port: Int, users: [String: String]) throws -> Process {
        let fileManager = FileManager.default
        for sub in ["conf/db", "conf/socket", "conf/proc", "conf/lock", "conf/log", "conf/sieve", "spool"] {
            try fileManager.createDirectory(atPath: folder.file(sub), withIntermediateDirectories: true)
        }
        let root = getuid() == 0
        let owner =
            root ? "cyrus" : (getpwuid(getuid()).flatMap { String(validatingCString: $0.pointee.pw_name) } ?? "")
        let config = folder.file("imapd.conf")
        try Data(
            """
            configdirectory: \(folder.file("conf"))
            defaultpartition: default
            partition-default: \(folder.file("spool"))
            sievedir: \(folder.file("conf/sieve"))
            lmtpsocket: \(folder.file("conf/socket/lmtp"))
            idlesocket: \(folder.file("conf/socket/idle"))
            notifysocket: \(folder.file("conf/socket/notify"))
            cyrus_user: \(owner)
            servername: localhost
            httpmodules: caldav
            sasl_pwcheck_method: auxprop
            sasl_auxprop_plugin: sasldb
            sasl_sasldb_path: \(folder.file("sasldb2"))
            sasl_mech_list: PLAIN
            allowplaintext: yes
            autocreate_post: yes
            autocreate_quota: 0
            syslog_prefix: todo-tests

            """.utf8
        ).write(to: URL(fileURLWithPath: config))
        try Data(
            """
            START {
              recover cmd="ctl_cyrusdb -r -C \(config)"
            }
            SERVICES {
              http cmd="httpd -C \(config)" listen="127.0.0.1:\(port)" prefork=0
              lmtpunix cmd="lmtpd -C \(config)" listen="\(folder.file("conf/socket/lmtp"))" prefork=0
            }
            EVENTS {
            }
            DAEMON {
            }

            """.utf8
        ).write(to: URL(fileURLWithPath: folder.file("cyrus.conf")))
        for (user, password) in users.sorted(by: { $0.key < $1.key }) {
            let made = try ProcessRunner.run(
                saslpasswd2, ["-p", "-c", "-f", folder.file("sasldb2"), "-u", "localhost", user],
                stdin: password, timeout: 30)
            guard made.status == 0 else { throw ServerDidNotStart(description: "saslpasswd2 \(user): \(made.stderr)") }
        }
        if root {
            let given = try ProcessRunner.run("/bin/chown", ["-R", "cyrus", folder.path], timeout: 30)
            guard given.status == 0 else {
                throw ServerDidNotStart(description: "chown -R cyrus \(folder.path): \(given.stderr)")
            }
        }
        return try Process.startServer(
            "\(programs)/master",
            ["-C", config, "-M", folder.file("cyrus.conf"), "-p", folder.file("master.pid"), "-D"],
            environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C"], log: folder.file("master.log"))
    }

    /// Delivers one message to `user` over LMTP, which creates the user's INBOX.
    private func createInbox(_ user: String) throws {
        let message = "From: todo-tests@localhost\r\nTo: \(user)@localhost\r\nSubject: welcome\r\n\r\nhello\r\n"
        let delivered = try ProcessRunner.run(
            "\(Self.programs)/deliver", ["-C", folder.file("imapd.conf"), user], stdin: message, timeout: 30)
        guard delivered.status == 0 else {
            throw ServerDidNotStart(
                description:
                    "Cyrus deliver to \(user) failed (\(delivered.status)): \(delivered.stdout) \(delivered.stderr)")
        }
    }

    private init(port: Int, folder: TemporaryFolder, users: [String: String], process: Process) {
        self.port = port
        self.folder = folder
        self.users = users
        self.process = process
    }

    deinit { stop() }

    /// The pids of master's children (its services), from /proc.
    private func children() -> [pid_t] {
        let pid = process.processIdentifier
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
    }

    /// SIGTERM to master (it stops its services), SIGKILL after 2 s; then SIGKILL to any of its
    /// services still there. All by pid.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        let services = children()
        process.stopByPID()
        for service in services where kill(service, 0) == 0 { kill(service, SIGKILL) }
    }
}

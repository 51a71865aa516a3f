import Foundation
import TestSupport
import Testing

/// todoman 4.1 on a folder that vdirsyncer 0.19 keeps in step with a collection, as a todoman
/// user syncs.
struct Todoman {
    let folder = TemporaryFolder()
    let config: String
    let environment: [String: String]

    /// Writes the configurations and runs `vdirsyncer discover` and `sync`. `url` is one
    /// collection; with `collections` (the last path segments of the account's collections),
    /// it is the account's calendar home, and each collection is a list of its own, a folder of
    /// that name (made here, as `vdirsyncer discover` would ask a person to).
    init(url: String, user: String?, password: String?, collections: [String]? = nil) throws {
        config = folder.file("vdirsyncer.conf")
        let todoman = folder.file("todoman.py")
        let everyCollection = collections != nil
        for list in collections ?? [""] {
            try FileManager.default.createDirectory(
                atPath: folder.file("vdir") + "/" + list, withIntermediateDirectories: true)
        }
        let credentials = user.map { user in "username = \"\(user)\"\npassword = \"\(password ?? "")\"\n" }
        try """
        [general]
        status_path = "\(folder.file("status"))/"

        [pair tasks]
        a = "local"
        b = "remote"
        collections = \(everyCollection ? "[\"from b\"]" : "null")

        [storage local]
        type = "filesystem"
        path = "\(folder.file("vdir"))/"
        fileext = ".ics"

        [storage remote]
        type = "caldav"
        url = "\(url)"
        \(credentials ?? "")
        """.write(toFile: config, atomically: true, encoding: .utf8)
        try """
        path = "\(folder.file("vdir"))\(everyCollection ? "/*" : "")"
        date_format = "%Y-%m-%d"
        time_format = "%H:%M"
        \(everyCollection ? "" : "default_list = \"vdir\"")
        """.write(toFile: todoman, atomically: true, encoding: .utf8)
        environment = [
            "HOME": folder.path, "XDG_CACHE_HOME": folder.file("cache"), "TZ": "UTC",
            "TODOMAN_CONFIG": todoman, "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"
        ]
        try vdirsyncer("discover")
        try vdirsyncer("sync")
    }

    /// Runs `arguments` (a program and its arguments), required to succeed; its stdout.
    @discardableResult
    func run(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try ProcessRunner.run(
            arguments[0], Array(arguments.dropFirst()), environment: environment, timeout: 60)
        #expect(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        return result.stdout
    }

    /// `vdirsyncer -c CONFIG COMMAND`.
    func vdirsyncer(_ command: String) throws {
        try run(["/usr/bin/vdirsyncer", "-c", config, command])
    }

    /// `todoman --porcelain list --status ANY`, parsed.
    func list() throws -> [[String: Any]] {
        try parseJSON(
            try run(["/usr/bin/todoman", "--porcelain", "list", "--status", "ANY"]), as: [[String: Any]].self)
    }
}

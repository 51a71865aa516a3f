import Foundation
import TestSupport
import Testing

/// `scripts/package`: a Debian package that lintian accepts, that installs todo with its manual
/// and completions working at once, and that `dpkg -r` removes without a trace. Installing a
/// package needs root (CI runs as root); elsewhere the suite is skipped.
@Suite(.timed, .serialized, .enabled(if: getuid() == 0, "dpkg -i needs root"))
struct PackageTests {
    let folder = TemporaryFolder()
    var binaries: String { URL(fileURLWithPath: ProcessRunner.todoBinary).deletingLastPathComponent().path }
    static let environment = ["PATH": "/opt/swift/usr/bin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"]

    func run(_ command: String, _ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        try ProcessRunner.run(
            command, arguments, environment: Self.environment.merging(environment) { $1 }, timeout: 120)
    }

    @Test func installsWorksAndRemovesCleanly() throws {
        // The test build's binaries, packaged as the release ones are (TODO_BINARIES), but
        // gzipped fast: xz takes 5 s of the suite's CPU on debug binaries, gzip -1 0.2 s.
        let built = try run(
            "/bin/bash", [ProcessRunner.packageRoot + "/scripts/package"],
            environment: [
                "TODO_BINARIES": binaries, "OUT": folder.path, "HOME": folder.path, "DEB_COMPRESSION": "gzip",
                "DEB_COMPRESSION_LEVEL": "1"
            ])
        #expect(built.status == 0, "\(built.stderr)")
        let deb = try #require(built.stdout.split(separator: "\n").last.map(String.init))
        let version = try run(ProcessRunner.todoBinary, ["--version"]).stdout
        #expect(
            deb.hasSuffix(
                "todo_\(version.dropFirst(5).dropLast())-1_\(try run("/usr/bin/dpkg", ["--print-architecture"]).stdout.dropLast()).deb"
            ))

        // lintian: no errors. A debug build links the Swift runtime by a RUNPATH into the
        // toolchain, which lintian rightly refuses; the release build that scripts/package makes
        // by default is static (todo) or carries the runtime (todo-sync), and has no RUNPATH.
        let lintian = try run("/usr/bin/lintian", [deb])
        let errors = lintian.stdout.split(separator: "\n").filter {
            $0.hasPrefix("E:") && !$0.contains("custom-library-search-path")
        }
        #expect(errors.isEmpty, "lintian: \(lintian.stdout)")

        if try run("/usr/bin/dpkg-query", ["-W", "todo"]).status == 0 {
            Issue.record("a todo package is already installed; not touching it")
            return
        }
        let installed = try run("/usr/bin/dpkg", ["-i", deb])
        #expect(installed.status == 0, "\(installed.stderr)")
        let files = try run("/usr/bin/dpkg", ["-L", "todo"]).stdout.split(separator: "\n").map(String.init)
        defer {
            _ = try? run("/usr/bin/dpkg", ["-r", "todo"])
        }
        #expect(try run("/usr/bin/todo", ["--version"]).stdout == version)
        // The package's own pages, whatever else is installed: `scripts/install` may have put
        // pages under /usr/local/share/man, which man would find first on its default path.
        for page in ["todo", "todo-sync"] {
            let path = "/usr/share/man/man1/\(page).1.gz"
            #expect(files.contains(path), "dpkg -L todo lists no \(path)")
            let man = try run("/usr/bin/man", ["-w", page], environment: ["MANPATH": "/usr/share/man"])
            #expect(man.stdout == path + "\n", "\(man.stderr)")
            let shown = try run(
                "/usr/bin/man", ["-l", path], environment: ["MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat"])
            #expect(shown.status == 0 && shown.stdout.contains("todo"), "man -l \(path): \(shown.stderr)")
        }

        // A new bash with bash-completion completes todo at once, from the package's completion
        // (XDG_DATA_DIRS without /usr/local/share, where scripts/install puts its own).
        let database = folder.file("todo.sqlite")
        _ = try run("/usr/bin/todo", ["add", "Buy milk"], environment: ["TODO_DB": database])
        let bash = try TmuxSession.newBash(
            home: folder, database: database, environment: "PATH=/usr/bin:/bin XDG_DATA_DIRS=/usr/share")
        try bash.type("todo done ")
        try bash.press("Tab")
        _ = try bash.waitFor("$ todo done 1")

        let removed = try run("/usr/bin/dpkg", ["-r", "todo"])
        #expect(removed.status == 0, "\(removed.stderr)")
        let left = files.filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder.boolValue
        }
        #expect(left.isEmpty, "dpkg -r left: \(left)")
        #expect(try run("/usr/bin/dpkg-query", ["-W", "todo"]).status != 0)
    }
}

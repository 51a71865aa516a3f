import Foundation
import TestSupport
import Testing

/// Where `todo` keeps its database, and how private it keeps it.
@Suite(.timed) struct DatabaseLocationTests {
    let sandbox = CLISandbox()

    @Test func anEmptyDbIsAUsageErrorNotTheDefaultList() throws {
        let result = try sandbox.todo(["list", "--db", ""], environment: ["XDG_DATA_HOME": sandbox.folder.file("data")])
        #expect(result.status == 2)
        #expect(result.stderrLines.first == "error: --db needs a path, and it was given an empty one")
        #expect(!FileManager.default.fileExists(atPath: sandbox.folder.file("data")))
    }

    @Test func aFolderGivenAsTheDatabaseSaysSo() throws {
        let folder = sandbox.folder.file("notes")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        for arguments in [["list"], ["add", "x"]] {
            let result = try sandbox.todo(arguments + ["--db", folder])
            #expect(result.status == 1)
            #expect(result.stderrLines.first == "error: \(folder) is a folder, not a database file")
        }
    }

    /// Run as another user when the tests run as root (as in CI), for whom every file is writable.
    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") || getuid() != 0,
            "needs setpriv to drop root"))
    func aReadOnlyFileOrFolderNamesTheFileThatCannotBeWritten() throws {
        let folder = sandbox.folder.file("shared")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let database = folder + "/todo.sqlite"
        _ = try sandbox.ok("add", "Buy milk", "--db", database)
        func addAsUser() throws -> ProcessResult {
            let user: [String] =
                getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
            let command = user + [ProcessRunner.todoBinary, "--db", database, "add", "Pay rent"]
            return try ProcessRunner.run(command[0], Array(command.dropFirst()))
        }
        chmod(sandbox.folder.path, 0o755)
        if getuid() == 0 {
            chown(folder, 65534, 65534)
            chown(database, 65534, 65534)
        }

        chmod(database, 0o444)
        let file = try addAsUser()
        #expect(file.status == 1)
        #expect(file.stderrLines.first == "error: cannot write \(database): Permission denied")

        chmod(database, 0o644)
        // SQLite gave the -shm it made for that read the database file's mode, 0444: that file
        // is now the one at fault, and the error says so.
        if FileManager.default.fileExists(atPath: database + "-shm") {
            let shm = try addAsUser()
            #expect(shm.stderrLines.first == "error: cannot write \(database)-shm: Permission denied")
        }
        for suffix in ["-wal", "-shm"] { unlink(database + suffix) }
        chmod(folder, 0o555)  // the file may be written, but no -wal or -shm can be made beside it
        let inFolder = try addAsUser()
        #expect(inFolder.status == 1)
        #expect(
            inFolder.stderrLines.first?.hasPrefix("error: cannot write in the folder \(folder)") == true,
            "\(inFolder.stderr)")
        chmod(folder, 0o755)
        #expect(try sandbox.listJSON("--db", database).map { $0["name"] as? String } == ["Buy milk"])
    }

    @Test func defaultIsUnderXDGDataHomeAndPrivate() throws {
        let xdg = sandbox.folder.file("data")
        let result = try sandbox.todo(["add", "x"], environment: ["TODO_DB": "", "XDG_DATA_HOME": xdg])
        #expect(result.status == 0)
        let path = xdg + "/todo/todo.sqlite"
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(sandbox.folder.mode(xdg) == 0o700)
        #expect(sandbox.folder.mode(xdg + "/todo") == 0o700)
        #expect(sandbox.folder.mode(path) == 0o600)
    }

    @Test func withoutXDGDataHomeItIsUnderHome() throws {
        let home = sandbox.folder.file("home")
        let result = try sandbox.todo(["add", "x"], environment: ["TODO_DB": "", "XDG_DATA_HOME": "", "HOME": home])
        #expect(result.status == 0)
        #expect(FileManager.default.fileExists(atPath: home + "/.local/share/todo/todo.sqlite"))
    }

    @Test func todoDBOverridesXDGAndDbOverridesBoth() throws {
        let xdg = sandbox.folder.file("data")
        let env = sandbox.folder.file("env.sqlite")
        let flag = sandbox.folder.file("flag.sqlite")
        #expect(try sandbox.todo(["add", "x"], environment: ["TODO_DB": env, "XDG_DATA_HOME": xdg]).status == 0)
        #expect(
            try sandbox.todo(["add", "y", "--db", flag], environment: ["TODO_DB": env, "XDG_DATA_HOME": xdg]).status
                == 0)
        #expect(FileManager.default.fileExists(atPath: env))
        #expect(FileManager.default.fileExists(atPath: flag))
        #expect(!FileManager.default.fileExists(atPath: xdg))
    }

    @Test func theBinaryRunsFromAnyFolder() throws {
        let result = try ProcessRunner.run(
            ProcessRunner.todoBinary, ["add", "x"],
            environment: ["TODO_DB": sandbox.database], currentDirectory: "/")
        #expect(result.status == 0)
        #expect(result.stdout == "1\n")
    }
}

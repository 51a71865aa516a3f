import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A todo list is private: created 0700/0600 whatever the umask, and an owner's chosen mode is
/// never loosened, not by `todo` and not by the `-wal`/`-shm` files SQLite makes beside it.
@Suite(.timed) struct ReliabilityPrivacyTests {
    let sandbox = CLISandbox()

    /// Every command that opens the file, once each.
    private func runEveryCommand(_ env: [String: String] = [:]) throws {
        for arguments in [
            ["add", "a"], ["add", "b", "--due", "2030-01-01"], ["list"], ["list", "--outline", "--json"], ["show", "1"],
            ["done", "1"], ["undone", "1"], ["edit", "2", "--name", "c"], ["rm", "--yes", "2"], ["undo"], ["export"]
        ] {
            let result = try sandbox.todo(arguments, environment: env)
            #expect(result.status == 0, "todo \(arguments.joined(separator: " ")): \(result.stderr)")
        }
    }

    /// Checks that a side file grants nothing the database does not. The file must exist: a
    /// missing one would be a check that checked nothing.
    private func expectNotLooser(
        _ side: String, than database: String, _ label: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard FileManager.default.fileExists(atPath: side) else {
            Issue.record(
                "\(label): \(side) does not exist, so its mode cannot be checked", sourceLocation: sourceLocation)
            return
        }
        let sideMode = sandbox.folder.mode(side)
        let databaseMode = sandbox.folder.mode(database)
        #expect(
            sideMode & ~databaseMode == 0,
            "\(label): \(side) is \(String(sideMode, radix: 8)), the database \(String(databaseMode, radix: 8))",
            sourceLocation: sourceLocation)
    }

    @Test("Even with umask 000, the default folders are created 0700 and the file 0600")
    func createdPrivateWhateverTheUmask() throws {
        let xdg = sandbox.folder.file("data")
        let env = ["TODO": ProcessRunner.todoBinary, "XDG_DATA_HOME": xdg, "HOME": sandbox.folder.path]
        let result = try ProcessRunner.run("bash", ["-c", "umask 000 && exec \"$TODO\" add x"], environment: env)
        #expect(result.status == 0, "\(result.stderr)")
        let path = xdg + "/todo/todo.sqlite"
        #expect(sandbox.folder.mode(xdg) == 0o700)
        #expect(sandbox.folder.mode(xdg + "/todo") == 0o700)
        #expect(sandbox.folder.mode(path) == 0o600)
        // SQLite deletes the side files when the last connection closes, so they are gone once
        // `add` exits: keep `todo watch` open (under umask 000 too) and write beside it.
        let watch = try RunningProcess(
            try ProcessRunner.which("bash"), ["-c", "umask 000 && exec \"$TODO\" watch --json"], environment: env)
        #expect(watch.nextLine(timeout: 10) != nil, "todo watch did not start")
        let second = try ProcessRunner.run("bash", ["-c", "umask 000 && exec \"$TODO\" add y"], environment: env)
        #expect(second.status == 0, "\(second.stderr)")
        for side in ["-wal", "-shm"] { expectNotLooser(path + side, than: path, "umask 000") }
        _ = watch.interrupt()
    }

    @Test("An existing 0640 file and 0750 folder keep their modes through every command")
    func anExistingModeIsNeverLoosenedOrChanged() throws {
        let folder = sandbox.folder.file("shared")
        let path = folder + "/todo.sqlite"
        let env = ["TODO_DB": path]
        #expect(try sandbox.todo(["list"], environment: env).status == 0)
        #expect(chmod(path, 0o640) == 0 && chmod(folder, 0o750) == 0)
        try runEveryCommand(env)
        #expect(sandbox.folder.mode(path) == 0o640)
        #expect(sandbox.folder.mode(folder) == 0o750)
        // A tighter one stays tight too.
        #expect(chmod(path, 0o400 | 0o200) == 0)
        try runEveryCommand(env)
        #expect(sandbox.folder.mode(path) == 0o600)
    }

    @Test("The -wal and -shm files, made while todo runs, are no more permissive than the database (0640 and 0600)")
    func sideFilesAreNoLooserThanTheDatabase() throws {
        for mode in [0o640, 0o600] as [mode_t] {
            let path = sandbox.folder.file("db-\(String(mode, radix: 8)).sqlite")
            let env = ["TODO_DB": path]
            #expect(try sandbox.todo(["add", "first"], environment: env).status == 0)
            #expect(chmod(path, mode) == 0)
            // SQLite deletes the side files when the last connection closes: keep one open with
            // `todo watch`, then write beside it so both files exist.
            let watch = try RunningProcess(ProcessRunner.todoBinary, ["watch", "--json"], environment: env)
            #expect(watch.nextLine(timeout: 10) != nil, "todo watch did not start")
            #expect(try sandbox.todo(["add", "second"], environment: env).status == 0)
            #expect(
                FileManager.default.fileExists(atPath: path + "-wal")
                    && FileManager.default.fileExists(atPath: path + "-shm"))
            for side in ["-wal", "-shm"] {
                expectNotLooser(path + side, than: path, "database \(String(mode, radix: 8))")
            }
            _ = watch.interrupt()
            #expect(sandbox.folder.mode(path) == Int(mode))
        }
    }
}

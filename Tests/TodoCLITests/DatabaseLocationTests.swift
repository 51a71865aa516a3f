import Foundation
import TestSupport
import Testing

/// Where `todo` keeps its database, and how private it keeps it.
@Suite struct DatabaseLocationTests {
    let sandbox = CLISandbox()

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
        let xdg = sandbox.folder.file("data"), env = sandbox.folder.file("env.sqlite"), flag = sandbox.folder.file("flag.sqlite")
        #expect(try sandbox.todo(["add", "x"], environment: ["TODO_DB": env, "XDG_DATA_HOME": xdg]).status == 0)
        #expect(try sandbox.todo(["add", "y", "--db", flag], environment: ["TODO_DB": env, "XDG_DATA_HOME": xdg]).status == 0)
        #expect(FileManager.default.fileExists(atPath: env))
        #expect(FileManager.default.fileExists(atPath: flag))
        #expect(!FileManager.default.fileExists(atPath: xdg))
    }

    @Test func theBinaryRunsFromAnyFolder() throws {
        let result = try ProcessRunner.run(ProcessRunner.todoBinary, ["add", "x"],
                                           environment: ["TODO_DB": sandbox.database], currentDirectory: "/")
        #expect(result.status == 0)
        #expect(result.stdout == "1\n")
    }
}

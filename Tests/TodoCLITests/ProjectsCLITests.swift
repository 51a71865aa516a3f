import Foundation
import TestSupport
import Testing

/// Issue 37, point 2: a project as taskwarrior users mean one. It is not a tag (the project
/// `Errands` and the tag `+errands` are told apart by every filter), it has a hierarchy
/// (`--project Work` takes `Work.ClientA`, never `Workshop`), `todo projects` and `--by project`
/// show the tree, and it goes through edit, undo, JSON and todo.txt.
@Suite(.timed) struct ProjectsCLITests {
    let sandbox = CLISandbox()

    private func names(_ arguments: String...) throws -> [String] {
        try sandbox.listJSON(arguments + ["--sort", "name"]).map { $0["name"] as? String ?? "?" }
    }

    private func addSample() throws {
        _ = try sandbox.ok("add", "Post letters", "project:Errands")
        _ = try sandbox.ok("add", "Buy milk", "+errands")
        _ = try sandbox.ok("add", "Return the drill", "project:Errands", "+errands")
        _ = try sandbox.ok("add", "Plan the quarter", "--project", "Work")
        _ = try sandbox.ok("add", "Send the report", "project:Work.ClientA", "+urgent")
        _ = try sandbox.ok("add", "Call Bob", "project:work.clientb")
        _ = try sandbox.ok("add", "Sand the table", "project:Workshop")
    }

    @Test func aProjectIsNoTagAndTakesWhatIsInsideIt() throws {
        try addSample()
        #expect(try names("--tag", "errands") == ["Buy milk", "Return the drill"], "the tag alone")
        #expect(try names("--project", "errands") == ["Post letters", "Return the drill"], "the project alone")
        #expect(
            try names("--project", "Work") == ["Call Bob", "Plan the quarter", "Send the report"],
            "inside Work, never Workshop")
        #expect(try names("--project", "project:WORK.clientA") == ["Send the report"])
        #expect(
            try names("--project", "Work.ClientA", "--project", "Workshop") == ["Sand the table", "Send the report"])
        #expect(try names("--project", "Work", "--tag", "urgent") == ["Send the report"])
        let rows = try sandbox.ok("list")
        #expect(rows.contains("Send the report project:Work.ClientA +urgent\n"), "\(rows)")
        #expect(try sandbox.listJSON("--project", "Work.ClientA").first?["project"] as? String == "Work.ClientA")
        #expect(try sandbox.listJSON("--tag", "errands").first?["project"] is NSNull)
        #expect(try sandbox.ok("show", "5").contains("project:   Work.ClientA\n"))
    }

    @Test func projectsAndByProjectShowTheTree() throws {
        try addSample()
        _ = try sandbox.ok("done", "4")
        #expect(
            try sandbox.ok("projects") == """
                Errands    2 undone, 0 done
                Work       2 undone, 1 done
                  ClientA  1 undone, 0 done
                  clientb  1 undone, 0 done
                Workshop   1 undone, 0 done

                """)
        #expect(try sandbox.ok("projects", "--names") == "Errands\nWork\nWork.ClientA\nwork.clientb\nWorkshop\n")
        let json = try sandbox.ok("projects", "--json")
        #expect(json.contains(#"{"project": "Work", "undone": 2, "done": 1, "own": 1}"#), "\(json)")
        let outline = try sandbox.ok("list", "--outline", "--by", "project")
        let titles = outline.split(separator: "\n").filter { !$0.hasPrefix("└") && !$0.hasPrefix("├") }
        #expect(
            titles == [
                "Errands (2)", "Work (1)", "Work.ClientA (1)", "work.clientb (1)", "Workshop (1)", "No project (1)"
            ],
            "\(outline)")
    }

    @Test func editUndoAndBadProjects() throws {
        try addSample()
        _ = try sandbox.ok("edit", "2", "--project", "Home.Kitchen")
        #expect(try names("--project", "home") == ["Buy milk"])
        _ = try sandbox.ok("edit", "2", "--no-project")
        #expect(try names("--project", "home") == [])
        #expect(try sandbox.ok("undo") == "Undid 'edit'.\n")
        #expect(try names("--project", "home") == ["Buy milk"])
        for bad in ["Work..A", ".Work", "Work.", "Work. A", "+Work", ""] {
            for arguments in [
                ["add", "x", "--project", bad], ["list", "--project", bad], ["edit", "1", "--project", bad]
            ] {
                let result = try sandbox.todo(arguments)
                #expect(result.status == 2, "\(arguments)")
                #expect(result.stderr.hasPrefix("error: '"), "\(arguments): \(result.stderr)")
            }
        }
        let both = try sandbox.todo("edit", "1", "--project", "A", "--no-project")
        #expect(both.status == 2)
        let twice = try sandbox.todo("add", "x", "project:A", "--project", "B")
        #expect(twice.status == 2 && twice.stderr.hasPrefix("error: 'project:' and '--project' both give the project"))
        #expect(try sandbox.listJSON().count == 7, "nothing added by a refused command")
    }

    @Test func jsonAndTodoTxtKeepTheProjectApartFromTheTags() throws {
        try addSample()
        let txt = try sandbox.ok("export", "--format", "todotxt")
        #expect(txt.contains(" Return the drill project:Errands +errands"), "\(txt)")
        let json = try sandbox.ok("export")
        for (format, text) in [("todotxt", txt), ("json", json)] {
            let other = CLISandbox()
            let result = try other.todo(["import", "--from", format, "-"], stdin: text)
            #expect(result.status == 0, "\(format): \(result.stderr)")
            let projects = try other.listJSON("--sort", "name").map {
                ($0["name"] as? String ?? "", $0["project"] as? String)
            }
            #expect(
                projects.map { "\($0.0)=\($0.1 ?? "-")" } == [
                    "Buy milk=-", "Call Bob=work.clientb", "Plan the quarter=Work", "Post letters=Errands",
                    "Return the drill=Errands", "Sand the table=Workshop", "Send the report=Work.ClientA"
                ], "\(format)")
            #expect(try other.listJSON("--tag", "errands").count == 2, "\(format): the tags stay tags")
        }
    }

    @Test func anotherProgramsValueThatNamesNoProjectReadsAsNone() throws {
        _ = try sandbox.ok("add", "Buy milk")
        let sqlite = try ProcessRunner.run(
            "sqlite3", [sandbox.database, "UPDATE todos SET project = 'Work..\u{1B}[31m' WHERE id = 1"])
        #expect(sqlite.status == 0, "\(sqlite.stderr)")
        #expect(try sandbox.listJSON().first?["project"] is NSNull)
        #expect(try sandbox.ok("projects", "--names") == "")
    }
}

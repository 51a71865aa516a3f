import Foundation
import TestSupport
import Testing

/// Issue 36, point 4, on the command line: a tag with spaces (`Home Improvement`, a phone's
/// category) is a tag: added (`--tag "Home Improvement"`, `"+Home Improvement"`), shown quoted
/// (`+"Home Improvement"`) in `list`, `show`, `tags` and `--by tag`, filtered, searched, taken off,
/// exported and imported as JSON, and exported to todo.txt as `+Home_Improvement`, which
/// todo.txt-cli reads as one project.
@Suite(.timed) struct TagsWithSpacesCLITests {
    let sandbox = CLISandbox()

    private func names(_ arguments: String...) throws -> [String] {
        try sandbox.listJSON(arguments + ["--sort", "name"]).map { $0["name"] as? String ?? "?" }
    }

    @Test func aTagWithSpacesIsAddedShownFilteredSearchedAndTakenOff() throws {
        _ = try sandbox.ok("add", "Fix the sink", "--tag", "Home Improvement", "--tag", "+Errands")
        _ = try sandbox.ok("add", "Fix", "the", "fence", "+home improvement")
        _ = try sandbox.ok("add", "Paint the shed", #"@"Home Improvement""#, "--tag", "@Back Yard")
        _ = try sandbox.ok("add", "Gym", "+Home", "+Improvement")
        #expect(
            try sandbox.ok("list") == """
                  1  [ ]              Fix the sink +"Home Improvement" +Errands
                  2  [ ]              Fix the fence +"home improvement"
                  3  [ ]              Paint the shed @"Home Improvement" @"Back Yard"
                  4  [ ]              Gym +Home +Improvement

                """)
        let sink = try #require(try sandbox.listJSON().first)
        #expect(sink["tags"] as? [String] == [#"+"Home Improvement""#, "+Errands"])
        #expect(try sandbox.ok("show", "1").contains(#"tags:      +"Home Improvement" +Errands"# + "\n"))
        #expect(
            try sandbox.ok("tags") == """
                +"Home Improvement"  3 undone, 0 done
                @"Back Yard"         1 undone, 0 done
                +Errands             1 undone, 0 done
                +Home                1 undone, 0 done
                +Improvement         1 undone, 0 done

                """)
        #expect(
            try sandbox.ok("tags", "--names")
                == "+Home Improvement\n@Back Yard\n+Errands\n+Home\n+Improvement\n", "as --tag takes each")
        for typed in ["Home Improvement", "+HOME IMPROVEMENT", #"+"Home Improvement""#, "@home improvement"] {
            #expect(try names("--tag", typed) == ["Fix the fence", "Fix the sink", "Paint the shed"], "\(typed)")
        }
        #expect(try names("--tag", "Home") == ["Gym"], "never a word of a tag with spaces")
        #expect(try names("--search", "home improv") == ["Fix the fence", "Fix the sink", "Paint the shed"])
        #expect(try names("--search", "back yard") == ["Paint the shed"])
        let outline = try sandbox.ok("list", "--outline", "--by", "tag")
        #expect(outline.contains(#"+"Home Improvement" (3)"#) && outline.contains(#"@"Back Yard" (1)"#), "\(outline)")

        _ = try sandbox.ok("edit", "1", "--untag", "home improvement", "--tag", "Garden Shed")
        #expect(try sandbox.listJSON().first?["tags"] as? [String] == ["+Errands", #"+"Garden Shed""#])
        #expect(try sandbox.ok("undo") == "Undid 'edit'.\n")
        #expect(try sandbox.listJSON().first?["tags"] as? [String] == [#"+"Home Improvement""#, "+Errands"])

        // Still no tag: a space at an end, two in a row, a sigil after one, a quote in it.
        for bad in [" Home", "Home  Improvement", "Home +Improvement", #"Home "Improvement""#, "Home\tImprovement"] {
            let result = try sandbox.todo("add", "x", "--tag", bad)
            #expect(result.status == 2 && result.stderr.hasPrefix("error: "), "\(bad): \(result.stderr)")
            #expect(result.stderr.contains("words with single spaces"), "\(result.stderr)")
        }
    }

    /// todo.txt has no quoting: a tag with spaces goes as `+Home_Improvement`, which
    /// todo.txt-cli lists as one project and filters by, and which comes back as that tag (an
    /// `_` is a tag's as much as a space). JSON keeps the tag as it is.
    @Test func exportsKeepATagWithSpacesOneWord() throws {
        _ = try sandbox.ok("add", "Fix the sink", "+Home Improvement", "@At Home", "+snake_case")
        let todoTxt = try sandbox.ok("export", "--format", "todotxt")
        #expect(todoTxt.hasSuffix(" Fix the sink +Home_Improvement @At_Home +snake_case\n"), "\(todoTxt)")

        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/todo-txt"),
            "todotxt-cli is not installed (scripts/setup installs it)")
        let folder = TemporaryFolder()
        try todoTxt.write(toFile: folder.file("todo.txt"), atomically: true, encoding: .utf8)
        let config = folder.file("config")
        try
            "export TODO_DIR=\(folder.path)\nexport TODO_FILE=\"$TODO_DIR/todo.txt\"\nexport DONE_FILE=\"$TODO_DIR/done.txt\"\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        func todoTxtCLI(_ arguments: String...) throws -> String {
            let result = try ProcessRunner.run(
                "/usr/bin/todo-txt", ["-p", "-d", config] + arguments,
                environment: ["HOME": folder.path, "TODOTXT_CFG_FILE": config, "PATH": "/usr/bin:/bin"])
            #expect(result.status == 0, "todo-txt \(arguments): \(result.stderr)")
            return result.stdout
        }
        #expect(try todoTxtCLI("lsprj") == "+Home_Improvement\n+snake_case\n")
        #expect(try todoTxtCLI("lsc") == "@At_Home\n")
        #expect(try todoTxtCLI("ls", "+Home_Improvement").contains("Fix the sink"))

        let other = sandbox.folder.file("other.sqlite")
        _ = try sandbox.ok("--db", other, "import", "--from", "todotxt", folder.file("todo.txt"))
        #expect(
            try sandbox.listJSON(["--db", other]).first?["tags"] as? [String] == [
                "+Home_Improvement", "@At_Home", "+snake_case"
            ])

        let json = sandbox.folder.file("export.json")
        try sandbox.ok("export").write(toFile: json, atomically: true, encoding: .utf8)
        let third = sandbox.folder.file("third.sqlite")
        _ = try sandbox.ok("--db", third, "import", json)
        #expect(
            try sandbox.listJSON(["--db", third]).first?["tags"] as? [String] == [
                #"+"Home Improvement""#, #"@"At Home""#, "+snake_case"
            ])
    }
}

import Foundation
import TestSupport
import Testing
import TodoStore

/// The README is a short front door, and every link in it and in the guide leads somewhere:
/// a file of the repository, or a heading that exists in it.
@Suite(.timed) struct DocumentationTests {
    static let root = ProcessRunner.packageRoot

    /// The Markdown pages people read: the README, the guide, the architecture, the changelog.
    static func pages() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root + "/docs")
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        return ["README.md", "ARCHITECTURE.md", "CHANGELOG.md"] + docs.sorted()
    }

    /// A heading's anchor as GitHub makes it: lower case, punctuation dropped but for `-` and
    /// `_`, spaces as `-`.
    static func anchor(_ heading: String) -> String {
        String(
            heading.lowercased().unicodeScalars.compactMap { scalar -> Character? in
                if scalar == " " { return "-" }
                if scalar == "-" || scalar == "_" || scalar.properties.isAlphabetic
                    || scalar.properties.numericType != nil
                {
                    return Character(scalar)
                }
                return nil
            })
    }

    /// The anchors of a page's headings (outside code blocks).
    static func anchors(of text: String) -> Set<String> {
        var anchors: Set<String> = []
        var inCode = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inCode.toggle() }
            guard !inCode, line.hasPrefix("#") else { continue }
            let heading = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            anchors.insert(anchor(heading.replacingOccurrences(of: "`", with: "")))
        }
        return anchors
    }

    @Test func everyLinkLeadsToAFileOrAHeadingThatExists() throws {
        var checked = 0
        for page in try Self.pages() {
            let text = try String(contentsOfFile: Self.root + "/" + page, encoding: .utf8)
            let folder = (page as NSString).deletingLastPathComponent
            for match in text.matches(of: /\]\(([^)\s]+)\)/) {
                let target = String(match.output.1)
                if target.hasPrefix("http://") || target.hasPrefix("https://") || target.hasPrefix("mailto:") {
                    continue
                }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let file =
                    parts[0].isEmpty
                    ? page
                    : ((folder as NSString).appendingPathComponent(String(parts[0])) as NSString).standardizingPath
                let path = Self.root + "/" + file
                #expect(FileManager.default.fileExists(atPath: path), "\(page): \(target) leads nowhere")
                if parts.count == 2, file.hasSuffix(".md"),
                    let linked = try? String(contentsOfFile: path, encoding: .utf8)
                {
                    #expect(
                        Self.anchors(of: linked).contains(String(parts[1])),
                        "\(page): \(target): no such heading in \(file)")
                }
                checked += 1
            }
        }
        #expect(checked > 30, "the pages link to each other")
    }

    @Test func theReadmeIsAShortFrontDoor() throws {
        let readme = try String(contentsOfFile: Self.root + "/README.md", encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 150, "README.md has \(lines) lines")
        // Its first screen says what todo is and how to install and run it.
        let firstScreen = readme.split(separator: "\n", omittingEmptySubsequences: false).prefix(24)
            .joined(separator: "\n")
        #expect(firstScreen.contains("scripts/install && todo add") && firstScreen.contains("scripts/test"))
    }

    /// A sync conflict names a field (its name in `TodoField.all`); the guide names every one
    /// that can conflict, and no other (`done` is part of `status`, whose conflict it is).
    @Test func theSyncGuideNamesEveryFieldThatCanConflict() throws {
        let guide = try String(contentsOfFile: Self.root + "/docs/sync.md", encoding: .utf8)
        let sentence = try #require(
            guide.firstRange(of: "the field (one of ").map { guide[$0.upperBound...].prefix { $0 != ";" } })
        let named = Set(sentence.matches(of: /`([a-z_]+)`/).map { String($0.output.1) })
        let conflicting = Set(TodoField.all.filter { $0.merge == .oneValue && $0.name != "done" }.map(\.name))
        #expect(named == conflicting, "the guide names \(named.sorted()), the merge \(conflicting.sorted())")
    }
}

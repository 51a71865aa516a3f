import Foundation
import TestSupport

/// A program running in a real terminal: a detached tmux session on its own server socket
/// (`tmux -L NAME`), driven with `send-keys` and read with `capture-pane`. The server is killed
/// when the session is released, so a failed test leaves nothing running.
final class TmuxSession: @unchecked Sendable {
    static let tmux = "/usr/bin/tmux"
    let socket = "todo-ui-" + UUID().uuidString.prefix(8).lowercased()

    /// Starts `command` (a shell command line) in a `columns` x `rows` window. When the command
    /// ends, the pane prints `EXITED <status>` and stays open, so its last screen can be read.
    init(_ command: String, columns: Int = 100, rows: Int = 30) throws {
        let line = "\(command); echo \"EXITED $?\"; exec sleep 600"
        let status = Self.run([
            "-L", socket, "-f", "/dev/null", "new-session", "-d",
            "-x", String(columns), "-y", String(rows), line
        ]).status
        guard status == 0 else { throw Failure(message: "tmux new-session failed (\(status))") }
    }

    deinit { Self.run(["-L", socket, "kill-server"]) }

    /// Runs tmux with `arguments` and returns its status and stdout.
    ///
    /// Not through Foundation's `Process`: a test runs on a Dispatch thread that blocks almost
    /// every signal, and a spawned process inherits that mask, so a tmux server started that
    /// way never sees SIGCHLD (and its panes never see SIGHUP). `GroupProcess.spawn` resets the
    /// mask and the dispositions; output goes to a file, so no pipe can be held open by the
    /// daemonised server.
    @discardableResult
    static func run(_ arguments: [String]) -> (status: Int32, stdout: String) {
        let outputPath = NSTemporaryDirectory() + "tmux-out-" + UUID().uuidString
        defer { unlink(outputPath) }
        guard
            let pid = try? GroupProcess.spawn(
                tmux, arguments, environment: ["PATH=/usr/bin:/bin", "LANG=C.UTF-8"], stdout: outputPath, stderr: nil)
        else { return (-1, "") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        return ((status >> 8) & 0xFF, output)
    }

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// Presses keys by tmux name: `Enter`, `Escape`, `Up`, `C-c`, `Space`, or single characters.
    func press(_ keys: String...) throws {
        Self.run(["-L", socket, "send-keys"] + keys)
    }

    /// Types text literally.
    func type(_ text: String) throws {
        Self.run(["-L", socket, "send-keys", "-l", text])
    }

    /// The visible screen, one string per row, trailing spaces removed.
    func screen() throws -> [String] {
        let output = Self.run(["-L", socket, "capture-pane", "-p"]).stdout
        return output.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.reversed().drop { $0 == " " }.reversed())
        }
    }

    /// Everything the pane printed, its history included, one string per line as the program
    /// wrote it: a line the terminal wrapped comes back whole (`capture-pane -J`), so it shows
    /// as wider than the pane. Trailing spaces removed.
    func transcript() throws -> [String] {
        let output = Self.run(["-L", socket, "capture-pane", "-p", "-J", "-S", "-"]).stdout
        return output.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.reversed().drop { $0 == " " }.reversed())
        }
    }

    /// A tmux format value for the pane, such as `#{alternate_on}` or `#{cursor_flag}`.
    func format(_ format: String) throws -> String {
        Self.run(["-L", socket, "display-message", "-p", format]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls the screen until `condition` holds; returns that screen, or throws with the last
    /// screen after `timeout` seconds. The default bound is generous: it only ends a test that
    /// failed, and a machine running the suite's four test processes at once is slow.
    @discardableResult
    func waitUntil(
        timeout: Double = 20, _ what: String = "condition",
        _ condition: ([String]) -> Bool
    ) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var last: [String] = []
        while true {
            last = try screen()
            if condition(last) { return last }
            if Date() > deadline {
                throw Failure(message: "timed out waiting for \(what); screen:\n" + last.joined(separator: "\n"))
            }
            usleep(10_000)
        }
    }

    /// Waits until some row contains `text`.
    @discardableResult
    func waitFor(_ text: String, timeout: Double = 20) throws -> [String] {
        try waitUntil(timeout: timeout, "\"\(text)\"") { $0.contains { $0.contains(text) } }
    }

    /// The row holding the cursor ('>' in the margin), if any.
    static func cursorLine(_ screen: [String]) -> String? {
        screen.first { $0.hasPrefix(">") }
    }

    /// The footer: the last row.
    static func footer(_ screen: [String]) -> String {
        screen.last { !$0.isEmpty } ?? ""
    }
}

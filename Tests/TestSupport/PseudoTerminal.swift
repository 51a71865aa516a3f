import Foundation

/// Runs a program on a real pseudo-terminal (through Python's `pty` module), so that it sees a
/// terminal on stdin and stdout: for colour and for interactive questions.
public enum PseudoTerminal {
    /// What the program wrote to the terminal (stdout and stderr, merged as on a screen) and
    /// its exit status.
    public struct Result: Sendable {
        public let status: Int32
        public let screen: String
    }

    private static let driver = #"""
        import os, pty, sys, json, select, time
        spec = json.loads(sys.argv[1])
        env = dict(os.environ)
        env.update(spec["env"])
        pid, fd = pty.fork()
        if pid == 0:
            os.execve(spec["argv"][0], spec["argv"], env)
        output, answered, deadline = b"", False, time.time() + 10
        while time.time() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    chunk = os.read(fd, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                output += chunk
            if spec["answer"] is not None and not answered and spec["prompt"].encode() in output:
                os.write(fd, (spec["answer"] + "\n").encode())
                answered = True
        # A program still running at the deadline is killed: the test fails, the suite goes on.
        done, status, grace = 0, 0, time.time() + 5
        while done == 0 and time.time() < grace:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done == 0:
                time.sleep(0.01)
        if done == 0:
            os.kill(pid, 9)
            _, status = os.waitpid(pid, 0)
        sys.stdout.write(json.dumps({"status": os.waitstatus_to_exitcode(status), "screen": output.decode("utf-8", "replace")}))
        """#

    /// Runs `arguments[0]` with the rest as its arguments; when `answer` is given, types it
    /// (and Enter) once `prompt` appears on the screen.
    public static func run(
        _ arguments: [String], environment: [String: String] = [:],
        answer: String? = nil, prompt: String = "[y/N]"
    ) throws -> Result {
        // COLUMNS and LINES emptied: a value exported by the shell running the suite would size
        // the program's output (a pty made here has no size, so nothing is cut or left out).
        var env = ["TERM": "xterm-256color", "LANG": "C.UTF-8", "NO_COLOR": "", "COLUMNS": "", "LINES": ""]
        env.merge(environment) { $1 }
        let spec: [String: Any] = ["argv": arguments, "env": env, "answer": answer as Any, "prompt": prompt]
        let json = String(decoding: try JSONSerialization.data(withJSONObject: spec), as: UTF8.self)
        let result = try ProcessRunner.run("python3", ["-c", driver, json])
        guard result.status == 0 else {
            throw UnexpectedOutput("pty driver exited \(result.status): \(result.stderr)")
        }
        let object = try parseJSON(result.stdout, as: [String: Any].self, "the pty driver's report")
        return Result(
            status: Int32(try field(object, "status", as: Int.self)),
            screen: try field(object, "screen", as: String.self))
    }
}

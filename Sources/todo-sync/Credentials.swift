import Foundation

/// Who the helper is to the server: HTTP Basic credentials, or none.
struct Credentials {
    var user: String?
    var password: String?

    /// The `Authorization` header value, when there is a user.
    var authorization: String? {
        guard let user else { return nil }
        return "Basic " + Data("\(user):\(password ?? "")".utf8).base64EncodedString()
    }

    /// Resolves the credentials for `url` in this order: the user given, else the URL's own user,
    /// else a netrc login; the password from `passwordCommand`, else the URL's own password, else
    /// `TODO_SYNC_PASSWORD`, else `$HOME/.netrc`. No network.
    static func resolve(url: URLComponents, user: String?, passwordCommand: String?,
                        environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Credentials {
        var credentials = Credentials(user: user ?? url.user, password: nil)
        if let passwordCommand {
            credentials.password = try runPasswordCommand(passwordCommand)
        } else if let password = url.password {
            credentials.password = password
        } else if let password = environment["TODO_SYNC_PASSWORD"], !password.isEmpty {
            credentials.password = password
        } else if let home = environment["HOME"], let host = url.host,
                  let text = try? String(contentsOfFile: home + "/.netrc", encoding: .utf8),
                  let entry = Netrc.entry(in: text, host: host, login: credentials.user) {
            credentials.user = credentials.user ?? entry.login
            credentials.password = entry.password
        }
        return credentials
    }

    /// Runs `command` with `/bin/sh -c`; its first output line is the password. The command reads
    /// nothing (its stdin is /dev/null, never the protocol) and its stderr is its own.
    static func runPasswordCommand(_ command: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw HelperError(.password, "could not run the password command")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let how = process.terminationReason == .exit ? "exited with status \(process.terminationStatus)"
                : "was killed by signal \(process.terminationStatus)"
            throw HelperError(.password, "the password command \(how)")
        }
        let text = String(decoding: data, as: UTF8.self)
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let password = line.hasSuffix("\r") ? String(line.dropLast()) : line
        guard !password.isEmpty else { throw HelperError(.password, "the password command printed no password") }
        return password
    }
}

/// curl's `.netrc`: `machine HOST login USER password PASS`, `default`, `macdef` (skipped);
/// tokens are separated by any white space and may be double-quoted (with \" \\ \n \t \r).
enum Netrc {
    struct Entry: Equatable {
        var login: String?
        var password: String?
    }

    /// The first entry for `host` (or else the `default` one) whose login is `login` when both
    /// are known.
    static func entry(in text: String, host: String, login: String?) -> Entry? {
        var machines: [(host: String?, entry: Entry)] = []  // host nil: default
        var tokens = tokenize(text)[...]
        while let token = tokens.popFirst() {
            switch token {
            case "machine":
                guard let name = tokens.popFirst() else { break }
                machines.append((name, Entry()))
            case "default":
                machines.append((nil, Entry()))
            case "login":
                if let value = tokens.popFirst(), !machines.isEmpty { machines[machines.count - 1].entry.login = value }
            case "password":
                if let value = tokens.popFirst(), !machines.isEmpty { machines[machines.count - 1].entry.password = value }
            case "account":
                _ = tokens.popFirst()
            default:
                break
            }
        }
        func fits(_ entry: Entry) -> Bool {
            entry.password != nil && (login == nil || entry.login == nil || entry.login == login)
        }
        if let match = machines.first(where: { $0.host?.lowercased() == host.lowercased() && fits($0.entry) }) {
            return match.entry
        }
        return machines.first(where: { $0.host == nil && fits($0.entry) })?.entry
    }

    /// The tokens of a netrc file, with `macdef` bodies (up to an empty line) left out.
    static func tokenize(_ text: String) -> [String] {
        var tokens: [String] = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var index = 0
        while index < lines.count {
            let line = lines[index]
            index += 1
            var current = ""
            var inToken = false, quoted = false, escaped = false
            var lineTokens: [String] = []
            for character in line {
                if quoted {
                    if escaped {
                        switch character {
                        case "n": current.append("\n")
                        case "t": current.append("\t")
                        case "r": current.append("\r")
                        default: current.append(character)
                        }
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        quoted = false
                    } else {
                        current.append(character)
                    }
                } else if character == " " || character == "\t" || character == "\r" {
                    if inToken { lineTokens.append(current); current = ""; inToken = false }
                } else if character == "\"" && !inToken {
                    inToken = true
                    quoted = true
                } else if character == "#" && !inToken && lineTokens.isEmpty {
                    break  // a comment line
                } else {
                    inToken = true
                    current.append(character)
                }
            }
            if inToken { lineTokens.append(current) }
            tokens += lineTokens
            if lineTokens.first == "macdef" {
                tokens.removeLast(lineTokens.count)
                while index < lines.count && !lines[index].trimmingCharacters(in: .whitespaces).isEmpty { index += 1 }
            }
        }
        return tokens
    }
}

import Foundation

/// Random single statements on the todos table, as another client would write them.
public enum RandomSQL {
    /// One INSERT, UPDATE or DELETE on ids 1...12.
    public static func statement(using generator: inout some RandomNumberGenerator) -> String {
        let id = Int.random(in: 1...12, using: &generator)
        let day = String(format: "2024-05-%02d", Int.random(in: 1...28, using: &generator))
        switch Int.random(in: 0..<6, using: &generator) {
        case 0, 1: return "INSERT INTO todos (name, deadline) VALUES ('t\(id)', '\(day)')"
        case 2: return "UPDATE todos SET name = 'renamed \(Int.random(in: 0...99, using: &generator))' WHERE id = \(id)"
        case 3: return "UPDATE todos SET deadline = '\(day)' WHERE id = \(id)"
        case 4: return "UPDATE todos SET done = 1 - done WHERE id = \(id)"
        default: return "DELETE FROM todos WHERE id = \(id)"
        }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process environment, read through `getenv` (no Foundation on the CLI path).
enum Environment {
    /// A variable's value, or `nil` when it is unset or empty (an empty `NO_COLOR` or `TODO_DB`
    /// means "not set" by convention).
    static func value(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}

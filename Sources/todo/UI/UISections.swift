/// Which of the list's two sections `todo ui` shows: each alone shows every todo once, so a
/// 20-row terminal is not halved by showing each todo twice. `v` cycles them.
enum UISections: String, CaseIterable {
    /// "All" then "Outline": the sample app's screen, and the default.
    case both
    /// The flat "All" list only.
    case all
    /// The "Outline" only: the "Undone" and "Done" groups, or those of `--by`.
    case outline

    /// The next one `v` shows: both, all, outline, both...
    var next: UISections {
        switch self {
        case .both: .all
        case .all: .outline
        case .outline: .both
        }
    }

    var showsAll: Bool { self != .outline }
    var showsOutline: Bool { self != .all }

    /// What the footer says after `v`.
    var description: String {
        switch self {
        case .both: "Showing All and Outline (v switches)"
        case .all: "Showing All (v switches)"
        case .outline: "Showing Outline (v switches)"
        }
    }
}

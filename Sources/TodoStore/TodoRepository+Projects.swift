import SQLite

/// A project (``TodoProject``) with how many todos are in it or inside it, as `todo projects`
/// lists them.
public struct ProjectCount: Sendable, Equatable {
    /// The project, written as the oldest todo of exactly that project writes it; a project that
    /// only holds others (`Work` of `Work.ClientA`) as its first one below it writes it.
    public var project: TodoProject
    /// How many todos are in it or inside it, by done state: what `--project` selects.
    public var undone: Int
    public var done: Int
    /// How many of those are in it itself (not in a project inside it).
    public var own: Int

    public init(project: TodoProject, undone: Int, done: Int, own: Int) {
        self.project = project
        self.undone = undone
        self.done = done
        self.own = own
    }
}

extension TodoRepository {
    /// Every project of a todo, and every project those are inside (`Work` for `Work.ClientA`),
    /// with their counts, in the tree's order: each project before those inside it, names
    /// compared case-folded.
    public func projectCounts() throws(TodoStoreError) -> [ProjectCount] {
        try TodoStoreError.wrap { () throws(SQLiteError) -> [ProjectCount] in
            let statement = try connection.internalCachedStatement(
                "SELECT project, done, count(*) FROM todos WHERE project IS NOT NULL GROUP BY project, done ORDER BY min(id)"
            )
            var counts: [String: ProjectCount] = [:]
            try statement.forEachRow { row in
                // A value another program wrote that names no project is none.
                guard let project = TodoProject(row.string(0)) else { return }
                let done = row.bool(1)
                let count = Int(row.int64(2))
                for (depth, level) in project.lineage.enumerated() {
                    let key = level.folded
                    var entry = counts[key] ?? ProjectCount(project: level, undone: 0, done: 0, own: 0)
                    if done { entry.done += count } else { entry.undone += count }
                    if depth == project.lineage.count - 1 {
                        // Written as the oldest todo of exactly this project writes it.
                        if entry.own == 0 { entry.project = level }
                        entry.own += count
                    }
                    counts[key] = entry
                }
            }
            return counts.values.sorted { $0.project.treeKey < $1.project.treeKey }
        }
    }
}

extension TodoProject {
    /// What sorts projects in the tree's order: the folded names joined by a byte below every
    /// other, so that `Work.ClientA` follows `Work` before `Work-Archive` does.
    public var treeKey: String {
        folded.split(separator: ".", omittingEmptySubsequences: false).joined(separator: "\u{1}")
    }
}

/// How urgent a todo is: the one rule `todo next` ranks by, taskwarrior's urgency (2.6's default
/// coefficients) computed from what a todo knows.
///
/// The score is a sum of terms, each a factor between 0 and 1 (or a yes/no) times its
/// coefficient:
///
/// | term | factor | coefficient |
/// | --- | --- | --- |
/// | due | 0.2 for a deadline 14 days away or more, rising evenly to 1 at 7 days overdue and after; 0 without one | 12 |
/// | priority | high (1-4) 6, medium (5) 3.9, low (6-9) 1.8, none 0 | 1 |
/// | age | days since it was created / 365, at most 1; 0 when not known | 2 |
/// | tags | 0.8 for one tag, 0.9 for two, 1 for three or more | 1 |
/// | project | 1 when it has a project | 1 |
/// | in progress | 1 when it is in progress (`todo start`) | 4 |
/// | blocking | 1 when a todo not done waits for it and it is not done | 8 |
/// | blocked | 1 when it waits for a todo not done | -5 |
/// | waiting | 1 when it starts after today | -3 |
///
/// Days are whole days on the local calendar: a todo due today is 0 days overdue (factor 0.733,
/// 8.8 points), whatever its time of day. Pure: the same todo, day, instant and links give the
/// same score, which is what makes a ranking stable and testable.
public enum TodoUrgency {
    /// The coefficient of the due term.
    public static let due = 12.0
    /// The priority terms by class: taskwarrior's H, M and L.
    public static let high = 6.0
    public static let medium = 3.9
    public static let low = 1.8
    /// The coefficient of the age term, and the age at which it is whole.
    public static let age = 2.0
    public static let maximumAgeInDays = 365.0
    /// The coefficient of the tags term.
    public static let tags = 1.0
    /// The coefficient of the project term: taskwarrior's for a task with a project.
    public static let project = 1.0
    /// In progress: taskwarrior's "active".
    public static let inProgress = 4.0
    /// Not done, and a todo not done waits for it.
    public static let blocking = 8.0
    /// Not done, and waiting for a todo not done.
    public static let blocked = -5.0
    /// Not started yet: a start date after today.
    public static let waiting = -3.0

    /// What the score takes besides the todo's fields: the links that involve it, in the
    /// dependency contract's sense (``TodoRepository``'s dependencies).
    public struct Links: Sendable, Hashable {
        /// Whether a todo not done waits for it (and it is not done).
        public var isBlocking: Bool
        /// Whether it waits for a todo not done (and it is not done).
        public var isBlocked: Bool

        public init(isBlocking: Bool = false, isBlocked: Bool = false) {
            self.isBlocking = isBlocking
            self.isBlocked = isBlocked
        }
    }

    /// The urgency of a todo with `fields` and `links`, on the local day `today` at the instant
    /// `now` (for its age): the sum of the terms in the table above.
    public static func score(
        of fields: TodoFields, links: Links = Links(), today: CalendarDate, now: UTCTimestamp
    ) -> Double {
        var score = due * dueFactor(fields.deadline, today: today)
        score += priorityTerm(fields.priority)
        score += age * ageFactor(created: fields.created, now: now)
        score += tags * tagsFactor(count: fields.tags.isEmpty ? 0 : fields.tags.count)
        if fields.project != nil { score += project }
        if fields.status == .inProcess { score += inProgress }
        if links.isBlocking { score += blocking }
        if links.isBlocked { score += blocked }
        if fields.startsAfter(today) { score += waiting }
        return score
    }

    /// The due factor: 0 without a deadline; else 0.2 for a deadline 14 days away or more, 1 for
    /// one 7 days overdue or more, and between them a straight line (taskwarrior's ramp).
    public static func dueFactor(_ deadline: CalendarDate?, today: CalendarDate) -> Double {
        guard let deadline else { return 0 }
        let overdue = Double(deadline.days(until: today))
        if overdue >= 7 { return 1 }
        if overdue >= -14 { return (overdue + 14) * 0.8 / 21 + 0.2 }
        return 0.2
    }

    /// The priority term: its class's coefficient, 0 for none.
    public static func priorityTerm(_ priority: TodoPriority) -> Double {
        switch priority.level {
        case .high?: high
        case .medium?: medium
        case .low?: low
        case nil: 0
        }
    }

    /// The age factor: the days from `created` to `now` over ``maximumAgeInDays``, between 0 and
    /// 1; 0 when the time it was created is not known (or is after `now`).
    public static func ageFactor(created: UTCTimestamp?, now: UTCTimestamp) -> Double {
        guard let created, created < now else { return 0 }
        let days = Double(now.secondsSince1970 - created.secondsSince1970) / 86_400
        return min(days / maximumAgeInDays, 1)
    }

    /// The tags factor: 0, 0.8, 0.9, then 1 for three tags or more.
    public static func tagsFactor(count: Int) -> Double {
        switch count {
        case ...0: 0
        case 1: 0.8
        case 2: 0.9
        default: 1
        }
    }

    /// Whether `a` comes before `b` in `todo next`'s order: the more urgent first, and between
    /// equal scores the list's default order (deadline, undated last, then id), so the ranking
    /// is total and stable.
    public static func ranksBefore(_ a: (todo: Todo, urgency: Double), _ b: (todo: Todo, urgency: Double)) -> Bool {
        if a.urgency != b.urgency { return a.urgency > b.urgency }
        return TodoFetchRequest.Order.due.areInIncreasingOrder(a.todo, b.todo)
    }
}

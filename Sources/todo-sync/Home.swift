import SyncProtocol

extension CalDAVClient {
    private static let homeBody = """
        <?xml version="1.0" encoding="utf-8"?>
        <D:propfind xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:A="http://apple.com/ns/ical/" \
        xmlns:CS="http://calendarserver.org/ns/"><D:prop>\
        <D:resourcetype/><D:displayname/><C:supported-calendar-component-set/><A:calendar-color/>\
        <D:sync-token/><CS:getctag/>\
        </D:prop></D:propfind>
        """

    /// `home`: the calendar collections in the collection opened (the account's calendar home),
    /// by one PROPFIND of Depth 1, with what a sync follows of each: its name and colour, the
    /// components it accepts, and what changes when a member does (sync token, ctag).
    ///
    /// Only calendars count (resourcetype `C:calendar`): subscriptions, schedule inboxes and
    /// outboxes, and Nextcloud's deleted calendars are other types. A member named outside the
    /// home (another origin, another path, `..`) is left out, never requested; one named twice
    /// is listed once.
    func home() throws(HelperError) -> HomeAnswer {
        final class Found {
            var collections: [HomeCollection] = []
            var urls = Set<String>()
        }
        let found = Found()
        let home = collection
        let (answer, _) = try multistatus(
            "PROPFIND", depth: "1", body: Self.homeBody, what: "PROPFIND", .properties,
            keeping: [.resourceType, .displayName, .components, .calendarColor, .syncToken, .ctag]
        ) { response in
            guard response.resourceType?.contains(.calendar) == true, var url = home.resolve(response.href),
                !url.isSame(as: home), url.refusal(inside: home) == nil
            else { return }
            url.user = nil
            url.password = nil
            url.query = nil
            if !url.path.hasSuffix("/") { url.path += "/" }
            guard found.urls.insert(url.string).inserted else { return }
            found.collections.append(
                HomeCollection(
                    url: url.string, name: response.displayName, color: response.calendarColor,
                    components: response.components ?? Discovery.allComponents, syncToken: response.syncToken,
                    ctag: response.ctag))
        }
        guard answer.status == 207 else { throw HelperError.status(answer.status, "PROPFIND \(displayURL)") }
        return HomeAnswer(collections: found.collections)
    }
}

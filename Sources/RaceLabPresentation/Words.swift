/// The words RaceLab says to people, each phrased once. Entries are sorted by name.
public enum Words {
    /// `["a", "b", "c"]` as "a, b or c" (`conjunction` "or"), or "a, b and c".
    public static func list(_ items: [String], _ conjunction: String) -> String {
        guard let last = items.last else { return "" }
        return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }
}

/// Numbers as people read them in messages and summaries: `1,242`, `-1,000,000`.
public enum NumberText {
    /// `number` with a comma between groups of three digits.
    public static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return number < 0 ? "-" + text : text
    }
}

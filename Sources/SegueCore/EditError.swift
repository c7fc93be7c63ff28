/// An invalid edit or command line: the user must change what they wrote. The CLI exits with status 2.
public struct EditError: Error, CustomStringConvertible, Equatable {
    /// Where: a field path such as `clips[2].transition.duration`, a file, or empty.
    public let field: String
    /// What is wrong and what to do, in words.
    public let message: String
    public init(_ field: String, _ message: String) { self.field = field; self.message = message }
    public var description: String { field.isEmpty ? message : "\(field): \(message)" }
}

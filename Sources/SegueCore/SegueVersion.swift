/// Segue's version, `MAJOR.MINOR.PATCH` (semantic versioning; the minor number follows the issue that last changed the
/// interface): the one place it is written. The library reads it as `Segue.version`; a resolved edit records it
/// (`EditResolution.segueVersion`).
public enum SegueVersion {
    public static let current = "0.31.0"
}

import CTextShaping

/// The HarfBuzz that shapes text (through libraqm), as loaded at run time.
public enum HarfBuzzVersion {
    /// `hb_version_string()`, e.g. "6.0.0": the library's, not the headers Segue was built with.
    public static var current: String { String(cString: hb_version_string()) }
}

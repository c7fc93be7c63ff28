import CFFmpeg
import CStillImage
import Foundation
import SegueCore

/// Where a still picture's EXIF `Orientation` tag (274) is read from, by format:
/// - JPEG (APP1) and WebP (EXIF chunk): FFmpeg's decoders parse the EXIF block and export its tags as the frame's
///   metadata (`AVFrame.metadata["Orientation"]`).
/// - PNG (`eXIf` chunk, PNG 1.5 extensions): FFmpeg 5.1 does not read it; the chunk is found by walking the chunk
///   headers and its EXIF block is parsed by libexif.
/// - TIFF: the tag belongs to the file's own first directory; libtiff reads it.
/// - HEIF: not read. HEIF's `irot`/`imir` properties are the file's orientation (ISO/IEC 23008-12 §6.5.10–11; a
///   reader must not apply an EXIF orientation on top of them) and libheif applies them when decoding.
enum ExifOrientation {
    /// The orientation value (1…8) of a decoded frame's metadata, or nil.
    static func fromMetadata(_ frame: Frame) -> Int? {
        guard let e = av_dict_get(frame.ptr.pointee.metadata, "Orientation", nil, 0), let v = e.pointee.value else { return nil }
        return Int(String(cString: v).trimmingCharacters(in: .whitespaces)).flatMap { (1...8).contains($0) ? $0 : nil }
    }

    /// The orientation value (1…8) of `path`'s EXIF block, by the stream's codec (PNG: `eXIf` via libexif, TIFF:
    /// libtiff), when the decoder's metadata had none; nil when there is none.
    static func fromFile(path: String, codec: AVCodecID) -> Int? {
        let v: Int32
        switch codec {
        case AV_CODEC_ID_PNG:
            guard let block = pngExifBlock(path: path) else { return nil }
            v = block.withUnsafeBufferPointer { segue_exif_orientation($0.baseAddress, UInt32($0.count)) }
        case AV_CODEC_ID_TIFF:
            v = segue_tiff_orientation(path)
        default:
            return nil
        }
        return (1...8).contains(Int(v)) ? Int(v) : nil
    }

    /// The payload of a PNG file's `eXIf` chunk (a TIFF-structured EXIF block), or nil. Walks the chunk headers
    /// (4-byte big-endian length, 4-byte type; PNG 1.2 §5.3) up to `IEND`, seeking over the data (writers put
    /// `eXIf` before or after the image data).
    static func pngExifBlock(path: String) -> [UInt8]? {
        guard let h = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? h.close() }
        guard let sig = try? h.read(upToCount: 8), [UInt8](sig) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { return nil }
        var offset: UInt64 = 8
        while true {
            guard (try? h.seek(toOffset: offset)) != nil, let head = try? h.read(upToCount: 8), head.count == 8 else { return nil }
            let b = [UInt8](head)
            let length = UInt64(b[0]) << 24 | UInt64(b[1]) << 16 | UInt64(b[2]) << 8 | UInt64(b[3])
            let type = String(decoding: b[4..<8], as: UTF8.self)
            if type == "eXIf" {
                guard length <= 0xFFF0, let data = try? h.read(upToCount: Int(length)), data.count == Int(length) else { return nil }
                return [UInt8](data)
            }
            if type == "IEND" { return nil }
            offset += 12 + length
        }
    }
}

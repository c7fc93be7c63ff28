#!/usr/bin/env python3
"""Writes very large but tiny-on-disk pictures for LargeStillTests (issue 22 #6), in about a second each:

  make-large-stills.py png OUT.png W H     8-bit RGB PNG: the left half red, the right half blue, and a green square
                                           (x and y from W/10 to 3W/10, 2H/10 to 6H/10)
  make-large-stills.py jpeg OUT.jpg W H    baseline JPEG, the same picture (W and H multiples of 8)

Neither is ever held whole: every row of a kind has the same compressed bytes, written once and repeated.
PNG: each row is a fixed-Huffman deflate block (literals, then copies of the pixel before it: distance 3, length up
to 258) followed by an empty stored block, which ends on a byte boundary, so a row's bytes do not depend on the rows
before it (RFC 1951 3.2.4-3.2.6); the zlib checksum (Adler-32) is computed over the rows as they would be inflated.
JPEG: every 8x8 block is flat (DC only, quantised by 1), 4:4:4 YCbCr, with a restart marker after each row of blocks
(ITU T.81 B.2.4.4, F.1.2.1): the DC prediction starts again at each row, so each row's entropy-coded bytes are the
same for rows alike. The Huffman tables are small ones of our own (DC: categories 0-11, 4 bits each; AC: EOB only).
"""
import struct, sys, zlib

RED, BLUE, GREEN = (255, 0, 0), (0, 0, 255), (0, 255, 0)

def runs(width, height_frac_row):
    """The row's colour runs [(colour, pixels)]: square rows have the green square."""
    half, s0, s1 = width // 2, width // 10, width * 3 // 10
    if height_frac_row:
        return [(RED, s0), (GREEN, s1 - s0), (RED, half - s1), (BLUE, width - half)]
    return [(RED, half), (BLUE, width - half)]

def in_square(y, h):
    return h * 2 // 10 <= y < h * 6 // 10

class Bits:
    """An LSB-first bit writer (deflate)."""
    def __init__(self): self.out, self.acc, self.n = bytearray(), 0, 0
    def put(self, value, count):
        self.acc |= value << self.n; self.n += count
        while self.n >= 8: self.out.append(self.acc & 255); self.acc >>= 8; self.n -= 8
    def put_rev(self, code, length):  # Huffman codes go most significant bit first
        self.put(int(format(code, "0%db" % length)[::-1], 2), length)
    def align(self):
        if self.n: self.out.append(self.acc & 255); self.acc, self.n = 0, 0

def fixed_literal(bits, v):
    if v < 144: bits.put_rev(0x30 + v, 8)
    else: bits.put_rev(0x190 + v - 144, 9)

LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
LENGTH_EXTRA = [0] * 8 + [1] * 4 + [2] * 4 + [3] * 4 + [4] * 4 + [5] * 4 + [0]

def fixed_copy(bits, length):
    """A copy of `length` (3...258) bytes from distance 3."""
    i = max(k for k in range(29) if LENGTH_BASE[k] <= length)
    code = 257 + i
    if code < 280: bits.put_rev(code - 256, 7)
    else: bits.put_rev(0xC0 + code - 280, 8)
    bits.put(length - LENGTH_BASE[i], LENGTH_EXTRA[i])
    bits.put_rev(2, 5)  # distance code 2 = distance 3, no extra bits

def png_row(width, square):
    bits = Bits()
    bits.put(0, 1); bits.put(1, 2)  # BFINAL 0, fixed Huffman
    fixed_literal(bits, 0)           # filter: none
    raw = bytearray([0])
    for colour, count in runs(width, square):
        for v in colour: fixed_literal(bits, v)
        left = 3 * (count - 1)
        while left > 0:
            n = min(258, left)
            if left - n in (1, 2): n -= 3  # never leave a copy shorter than 3
            fixed_copy(bits, n); left -= n
        raw += bytes(colour) * count
    bits.put_rev(0, 7)               # end of block
    bits.put(0, 1); bits.put(0, 2)   # BFINAL 0, stored
    bits.align()
    bits.out += b"\x00\x00\xff\xff"  # LEN 0, NLEN
    return bytes(bits.out), bytes(raw)

def png(path, w, h):
    def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
    rows = {s: png_row(w, s) for s in (False, True)}
    adler = 1
    idat = bytearray(b"\x78\x01")
    for y in range(h):
        data, raw = rows[in_square(y, h)]
        idat += data
        adler = zlib.adler32(raw, adler)
    idat += b"\x03\x00"              # a final empty fixed block (BFINAL 1, BTYPE 01, end of block)
    idat += struct.pack(">I", adler)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", bytes(idat)) + chunk(b"IEND", b""))

class JBits:
    """An MSB-first bit writer with 0xFF byte stuffing (JPEG)."""
    def __init__(self): self.out, self.acc, self.n = bytearray(), 0, 0
    def put(self, value, count):
        for i in range(count - 1, -1, -1):
            self.acc = (self.acc << 1) | ((value >> i) & 1); self.n += 1
            if self.n == 8:
                self.out.append(self.acc)
                if self.acc == 0xFF: self.out.append(0)
                self.acc, self.n = 0, 0
    def pad(self):
        while self.n: self.put(1, 1)

def ycbcr(c):
    r, g, b = c
    return (0.299 * r + 0.587 * g + 0.114 * b, 128 - 0.168736 * r - 0.331264 * g + 0.5 * b, 128 + 0.5 * r - 0.418688 * g - 0.081312 * b)

def jpeg_row(width, square):
    bits, pred = JBits(), [0, 0, 0]
    for colour, count in runs(width, square):
        dc = [int(round(8 * (v - 128))) for v in ycbcr(colour)]
        for _ in range(count // 8):
            for k in range(3):
                d = dc[k] - pred[k]; pred[k] = dc[k]
                cat = abs(d).bit_length()
                bits.put(cat, 4)                                    # DC category (our table: code = category, 4 bits)
                if cat: bits.put(d if d > 0 else d + (1 << cat) - 1, cat)
                bits.put(0, 1)                                      # AC: end of block (our table: code 0, 1 bit)
    bits.pad()
    return bytes(bits.out)

def jpeg(path, w, h):
    assert w % 8 == 0 and h % 8 == 0
    def seg(marker, data): return struct.pack(">BBH", 0xFF, marker, len(data) + 2) + data
    head = b"\xff\xd8" + seg(0xE0, b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00")
    head += seg(0xDB, b"\x00" + b"\x01" * 64)                        # quantisation table 0: all 1
    head += seg(0xC0, struct.pack(">BHHB", 8, h, w, 3) + b"\x01\x11\x00\x02\x11\x00\x03\x11\x00")
    dc = bytes([0, 0, 0, 12] + [0] * 12) + bytes(range(12))          # 12 codes of 4 bits: categories 0-11
    ac = bytes([1] + [0] * 15) + b"\x00"                             # 1 code of 1 bit: EOB
    head += seg(0xC4, b"\x00" + dc) + seg(0xC4, b"\x10" + ac)
    head += seg(0xDD, struct.pack(">H", w // 8))                     # a restart interval of one row of blocks
    head += seg(0xDA, b"\x03\x01\x00\x02\x00\x03\x00\x00\x3f\x00")
    rows = {s: jpeg_row(w, s) for s in (False, True)}
    with open(path, "wb") as f:
        f.write(head)
        for r in range(h // 8):
            f.write(rows[in_square(r * 8, h)])
            if r < h // 8 - 1: f.write(bytes([0xFF, 0xD0 + r % 8]))
        f.write(b"\xff\xd9")

if __name__ == "__main__":
    kind, out, w, h = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    (png if kind == "png" else jpeg)(out, w, h)

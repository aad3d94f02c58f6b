"""A baseline JPEG encoder in the Python standard library, for the replica's pictures (the real services serve JPEG).

Encodes 8-bit RGB as YCbCr 4:4:4 with one flat quantisation table and Huffman tables of fixed-length codes (every
DC category 4 bits, every AC symbol 8 bits): larger files than an optimising encoder makes, but a valid JFIF file
that every decoder reads, which is all the tests need.

    jpeg.encode(width, height, rgb_bytes) -> bytes
"""
import math
import struct

QUANT = 6
# Zigzag order: index k of the scan is the natural (row * 8 + column) position ZIGZAG[k].
ZIGZAG = sorted(range(64), key=lambda p: (p // 8 + p % 8, (p // 8) if (p // 8 + p % 8) % 2 else -(p // 8)))
COS = [[math.cos((2 * x + 1) * u * math.pi / 16) * (math.sqrt(0.5) if u == 0 else 1.0) / 2 for x in range(8)]
       for u in range(8)]
DC_SYMBOLS = list(range(12))
AC_SYMBOLS = [0x00, 0xF0] + [(run << 4) | size for run in range(16) for size in range(1, 11)]


def _codes(symbols, length):
    """Canonical Huffman codes of one length for the symbols, in order (the all-ones code stays unused)."""
    return {symbol: (index, length) for index, symbol in enumerate(symbols)}


DC_CODES = _codes(DC_SYMBOLS, 4)
AC_CODES = _codes(AC_SYMBOLS, 8)


class _Bits:
    def __init__(self):
        self.out = bytearray()
        self.value = 0
        self.count = 0

    def put(self, value, length):
        for shift in range(length - 1, -1, -1):
            self.value = (self.value << 1) | ((value >> shift) & 1)
            self.count += 1
            if self.count == 8:
                self.out.append(self.value)
                if self.value == 0xFF:
                    self.out.append(0)  # byte stuffing
                self.value = 0
                self.count = 0

    def flush(self):
        if self.count:
            self.put((1 << (8 - self.count)) - 1, 8 - self.count)
        return bytes(self.out)


def _category(value):
    return 0 if value == 0 else abs(value).bit_length()


def _amplitude(value, size):
    return value if value >= 0 else value + (1 << size) - 1


def _dct(block):
    """The 2-D DCT-II of an 8×8 block, separably: the rows, then the columns of the result."""
    rows = [[sum(a * b for a, b in zip(block[y * 8:y * 8 + 8], COS[u])) for u in range(8)] for y in range(8)]
    columns = list(zip(*rows))
    return [sum(a * b for a, b in zip(columns[u], COS[v])) for v in range(8) for u in range(8)]


def _encode_block(bits, block, previous_dc):
    coefficients = [int(round(c / QUANT)) for c in _dct(block)]
    scan = [coefficients[p] for p in ZIGZAG]
    diff = scan[0] - previous_dc
    size = _category(diff)
    bits.put(*DC_CODES[size])
    if size:
        bits.put(_amplitude(diff, size), size)
    run = 0
    for value in scan[1:]:
        if value == 0:
            run += 1
            continue
        while run > 15:
            bits.put(*AC_CODES[0xF0])
            run -= 16
        size = min(_category(value), 10)
        bits.put(*AC_CODES[(run << 4) | size])
        bits.put(_amplitude(value, size), size)
        run = 0
    if run:
        bits.put(*AC_CODES[0x00])
    return scan[0]


def _segment(marker, payload):
    return struct.pack(">BBH", 0xFF, marker, len(payload) + 2) + payload


def _huffman_table(table_class, table_id, symbols, length):
    counts = [0] * 16
    counts[length - 1] = len(symbols)
    return bytes([(table_class << 4) | table_id]) + bytes(counts) + bytes(symbols)


def encode(width, height, rgb):
    """The JPEG file of a picture given as width * height * 3 bytes of RGB."""
    planes = ([], [], [])
    for index in range(width * height):
        r, g, b = rgb[3 * index], rgb[3 * index + 1], rgb[3 * index + 2]
        planes[0].append(0.299 * r + 0.587 * g + 0.114 * b - 128)
        planes[1].append(-0.168736 * r - 0.331264 * g + 0.5 * b)
        planes[2].append(0.5 * r - 0.418688 * g - 0.081312 * b)
    bits = _Bits()
    previous = [0, 0, 0]
    for top in range(0, height, 8):
        for left in range(0, width, 8):
            for component in range(3):
                # Edge blocks repeat the last row and column, as encoders do.
                block = [planes[component][min(top + y, height - 1) * width + min(left + x, width - 1)]
                         for y in range(8) for x in range(8)]
                previous[component] = _encode_block(bits, block, previous[component])
    scan = bits.flush()
    quant = bytes([0]) + bytes([QUANT] * 64)
    frame = struct.pack(">BHHB", 8, height, width, 3) + bytes([1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0])
    tables = (_huffman_table(0, 0, DC_SYMBOLS, 4) + _huffman_table(1, 0, AC_SYMBOLS, 8))
    start = bytes([3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0])
    return (b"\xFF\xD8" + _segment(0xE0, b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00")
            + _segment(0xDB, quant) + _segment(0xC0, frame) + _segment(0xC4, tables) + _segment(0xDA, start)
            + scan + b"\xFF\xD9")

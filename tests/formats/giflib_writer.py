"""GIF files written byte by byte, so that the tests know every pixel they hold: a minimal
LZW encoder (literal codes only, a clear code before the table would widen the codes) and
the blocks around it."""
import struct


def lzw_literals(indices, min_code_size=8):
    """LZW data (the code size byte and the sub-blocks) encoding INDICES as literal codes.
    A clear code every so often keeps the code width at MIN_CODE_SIZE + 1 bits."""
    clear, end = 1 << min_code_size, (1 << min_code_size) + 1
    width = min_code_size + 1
    room = (1 << width) - (end + 1) - 1  # codes until the decoder's table would widen them
    codes = [clear]
    since_clear = 0
    for i in indices:
        if since_clear == room:
            codes.append(clear)
            since_clear = 0
        codes.append(i)
        since_clear += 1
    codes.append(end)
    bits, nbits, out = 0, 0, bytearray()
    for c in codes:
        bits |= c << nbits
        nbits += width
        while nbits >= 8:
            out.append(bits & 0xFF)
            bits >>= 8
            nbits -= 8
    if nbits:
        out.append(bits & 0xFF)
    blocks = bytearray([min_code_size])
    for at in range(0, len(out), 255):
        chunk = out[at:at + 255]
        blocks += bytes([len(chunk)]) + chunk
    return bytes(blocks + b"\0")


def palette_bytes(palette):
    """A colour table of 256 entries from PALETTE (a list of (r, g, b))."""
    table = bytearray()
    for i in range(256):
        table += bytes(palette[i] if i < len(palette) else (0, 0, 0))
    return bytes(table)


def frame(width, height, indices, left=0, top=0, interlaced=False, transparent=None,
          local_palette=None):
    """One image: an optional graphics control block, the descriptor, the data. INDICES are in
    the file's row order (for an interlaced frame, the interlaced order)."""
    out = bytearray()
    if transparent is not None:
        out += b"\x21\xf9\x04" + bytes([1]) + struct.pack("<H", 0) + bytes([transparent]) + b"\0"
    flags = (0x40 if interlaced else 0) | (0x87 if local_palette else 0)
    out += b"\x2c" + struct.pack("<HHHHB", left, top, width, height, flags)
    if local_palette:
        out += palette_bytes(local_palette)
    out += lzw_literals(indices)
    return bytes(out)


def gif(screen_width, screen_height, frames, palette=None):
    """A GIF89a with a global table from PALETTE (when given) and FRAMES (from frame())."""
    flags = 0x87 if palette else 0  # global table of 256 entries
    out = b"GIF89a" + struct.pack("<HHBBB", screen_width, screen_height, flags, 0, 0)
    if palette:
        out += palette_bytes(palette)
    return out + b"".join(frames) + b"\x3b"


def interlace_order(height):
    """The rows of an interlaced frame in the order the file stores them."""
    order = []
    for start, step in ((0, 8), (4, 8), (2, 4), (1, 2)):
        order += list(range(start, height, step))
    return order

"""Re-creates the real-file corpus `files/` and its `MANIFEST.yaml` (not run by the tests).

Every file is written by a real tool from a Debian or PyPI package: a command run in a scratch
folder (`sh`), or a few lines of Python calling the writing library (`py`). The manifest records,
per file, its format, its writer with the version that wrote it, and the command or the code.

    .venv/bin/python -m tests.gallery.make_files [--only NAME...]

The tools: `apt-get install sox libsox-fmt-all imagemagick tcpdump genisoimage dosfstools
mingw-w64 flac cpio device-tree-compiler u-boot-tools qemu-utils android-sdk-libsparse-utils
mkbootimg xa65 efitools fdisk gdisk vorbis-tools util-linux-extra xfonts-base grub-common ruby
php-cli gnupg openssh-client vpx-tools fonts-dejavu-core zip p7zip-full xfonts-utils openssl`, gcc and
javac, msgfmt (gettext), sqlite3; and `pip install pillow scapy msgpack pymongo mutagen pyshp mido
fonttools nbtlib numpy-stl pydicom mcap protobuf pygltflib websockets pylnk3`. Files are kept small on purpose
(tiny images, a hundredth of a second of sound, the smallest file systems the tools accept).
Some tools stamp the time or random bytes into what they write, so a new run gives other bytes.
"""

from __future__ import annotations

import importlib.metadata
import inspect
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import yaml

FILES = Path(__file__).with_name("files")
MANIFEST = FILES / "MANIFEST.yaml"

#: writer -> the command that prints its version (first line kept), or ("pip", distribution).
VERSIONS: dict[str, object] = {
    "imagemagick": "convert -version", "sox": "sox --version", "gzip": "gzip --version",
    "zip": "zip -v | sed -n 2p", "7z": "7z | sed -n 2p", "cpio": "cpio --version", "gcc": "gcc --version",
    "mingw-w64": "x86_64-w64-mingw32-gcc --version", "javac": "javac -version 2>&1",
    "mke2fs": "mke2fs -V 2>&1", "genisoimage": "genisoimage --version", "mkfs.vfat": "mkfs.vfat --help 2>&1 | head -1",
    "sfdisk": "sfdisk --version", "sgdisk": "sgdisk --version | head -1", "mkfs.cramfs": "mkfs.cramfs -h 2>&1 | head -1",
    "qemu-img": "qemu-img --version", "mkimage": "mkimage -V", "dtc": "dtc --version",
    "grub-mkfont": "grub-mkfont --version", "bdftopcf": "dpkg-query -W -f '${Version}' xfonts-utils",
    "xfonts-base": "dpkg-query -W -f '${Version}' xfonts-base", "utmpdump": "utmpdump --version",
    "xa": "xa --version | head -1", "tcpdump": "tcpdump --version 2>&1", "ssh-keygen": "dpkg-query -W -f '${Version}' openssh-client",
    "gpg": "gpg --version", "cert-to-efi-sig-list": "dpkg-query -W -f '${Version}' efitools",
    "openssl": "openssl version", "ruby": "ruby --version", "php": "php --version", "sqlite3": "sqlite3 --version",
    "msgfmt": "msgfmt --version", "oggenc": "oggenc --version", "vpxenc": "dpkg-query -W -f '${Version}' vpx-tools",
    "mkbootimg": "dpkg-query -W -f '${Version}' mkbootimg", "img2simg": "dpkg-query -W -f '${Version}' android-sdk-libsparse-utils",
    "windres": "x86_64-w64-mingw32-windres --version", "flac": "flac --version",
    "python": "python3 --version",
    "pillow": ("pip", "pillow"), "scapy": ("pip", "scapy"), "msgpack": ("pip", "msgpack"), "pymongo": ("pip", "pymongo"),
    "mutagen": ("pip", "mutagen"), "pyshp": ("pip", "pyshp"), "mido": ("pip", "mido"), "fonttools": ("pip", "fonttools"),
    "nbtlib": ("pip", "nbtlib"), "numpy-stl": ("pip", "numpy-stl"), "pydicom": ("pip", "pydicom"), "mcap": ("pip", "mcap"),
    "protobuf": ("pip", "protobuf"), "websockets": ("pip", "websockets"), "pylnk3": ("pip", "pylnk3"), "pygltflib": ("pip", "pygltflib"),
}


@dataclass
class Recipe:
    schema: str  # the gallery path without .ksy: the file's folder under files/
    name: str
    writer: str  # a key of VERSIONS
    sh: str = ""  # a shell command run in a scratch folder; {out} is the file to write
    py: Callable[[Path], None] | None = None  # or Python code that writes the file given
    params: dict | None = None  # the root's params, when it has some

    def command(self) -> str:
        if self.py is not None:
            source = textwrap.dedent(inspect.getsource(self.py)).strip()
            if self.py.__closure__:  # made by a helper: its doc says with which arguments
                return f"# {self.py.__doc__}\n{source}"
            return source
        return self.sh


# --- Python writers ------------------------------------------------------------------------------

def pillow(mode: str, size: tuple[int, int], fmt: str, **save):
    def write(out: Path) -> None:
        from PIL import Image
        img = Image.new(mode, size)
        img.putdata([(i * 37) % 256 if mode in ("L", "P") else tuple((i * k) % 256 for k in (37, 91, 13, 200)[:len(mode)])
                     for i in range(size[0] * size[1])])
        img.save(out, fmt, **save)
    write.__doc__ = f"Pillow: Image.new({mode!r}, {size}) with a pattern, saved as {fmt} {save or ''}"
    return write


def py_wave(out: Path) -> None:
    import math
    import struct
    import wave
    with wave.open(str(out), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(8000)
        w.writeframes(b"".join(struct.pack("<h", int(8000 * math.sin(i / 5))) for i in range(80)))


def py_sunau(out: Path) -> None:
    import sunau
    with sunau.open(str(out), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(8000)
        w.writeframes(bytes(range(160)))


def py_midi(out: Path) -> None:
    import mido
    mid = mido.MidiFile(type=1)
    for channel in range(2):
        track = mido.MidiTrack()
        track.append(mido.MetaMessage("track_name", name=f"t{channel}"))
        track.append(mido.Message("program_change", program=12, channel=channel))
        for note in (60, 64, 67):
            track.append(mido.Message("note_on", note=note, velocity=64, time=120, channel=channel))
            track.append(mido.Message("note_off", note=note, velocity=0, time=240, channel=channel))
        mid.tracks.append(track)
    mid.save(str(out))


def py_midi_type0(out: Path) -> None:
    import mido
    mid = mido.MidiFile(type=0)
    track = mido.MidiTrack()
    track.append(mido.MetaMessage("set_tempo", tempo=500000))
    track.append(mido.Message("note_on", note=72, velocity=100, time=0))
    track.append(mido.Message("note_on", note=72, velocity=0, time=480))
    mid.tracks.append(track)
    mid.save(str(out))


def id3(version: int, v1: int):
    def write(out: Path) -> None:
        from mutagen.id3 import COMM, ID3, TALB, TIT2, TPE1, TRCK
        out.write_bytes(b"\xff\xfb\x90\x00" + bytes(413))  # one silent MPEG frame for the tag to sit on
        tags = ID3()
        tags.add(TIT2(encoding=3, text="Title"))
        tags.add(TPE1(encoding=1, text="Artist"))
        tags.add(TALB(encoding=0, text="Album"))
        tags.add(TRCK(encoding=3, text="3/9"))
        tags.add(COMM(encoding=3, lang="eng", desc="", text="a comment"))
        tags.save(str(out), v1=v1, v2_version=version)
    write.__doc__ = f"mutagen: ID3v2.{version} tags (v1={v1}) on a silent MPEG frame"
    return write


def py_stl(out: Path) -> None:
    import numpy
    from stl import mesh
    data = numpy.zeros(2, dtype=mesh.Mesh.dtype)
    data["vectors"][0] = [[0, 0, 0], [1, 0, 0], [0, 1, 0]]
    data["vectors"][1] = [[0, 0, 1], [1, 0, 1], [0, 1, 1.5]]
    mesh.Mesh(data).save(str(out), mode=2)  # stl.Mode.BINARY


def websocket_frames(masked: bool):
    def write(out: Path) -> None:
        from websockets.frames import Frame, Opcode
        frames = [Frame(Opcode.TEXT, b"hello ", fin=False), Frame(Opcode.CONT, b"x" * 130, fin=False), Frame(Opcode.CONT, b"!")]
        out.write_bytes(b"".join(f.serialize(mask=masked, extensions=[]) for f in frames))
    write.__doc__ = f"websockets: a text message in three frames, serialized (mask={masked})"
    return write


def py_lnk(out: Path) -> None:
    import pylnk3
    lnk = pylnk3.for_file(r"C:\\Windows\\notepad.exe", arguments="a.txt", description="Notepad",
                          work_dir=r"C:\\Windows")
    lnk.save(str(out))


def py_exif(out: Path) -> None:
    from PIL import Image
    exif = Image.Exif()
    exif[0x010F] = "Maker"  # Make
    exif[0x0110] = "Model 1"  # Model
    exif[0x0112] = 1  # Orientation
    exif[0x011A] = (72, 1)  # XResolution
    out.write_bytes(exif.tobytes()[6:])  # Pillow's bytes start with the APP1 marker's "Exif\0\0"


def py_icc(kind: str):
    def write(out: Path) -> None:
        from PIL import ImageCms
        out.write_bytes(ImageCms.ImageCmsProfile(ImageCms.createProfile(kind)).tobytes())
    write.__doc__ = f"Pillow (lcms2): ImageCms.createProfile({kind!r}) as bytes"
    return write


def py_dicom(out: Path) -> None:
    from pydicom.dataset import FileDataset, FileMetaDataset
    from pydicom.uid import (
        ExplicitVRLittleEndian,
        SecondaryCaptureImageStorage,
        generate_uid,
    )
    meta = FileMetaDataset()
    meta.MediaStorageSOPClassUID = SecondaryCaptureImageStorage
    meta.MediaStorageSOPInstanceUID = generate_uid()
    meta.TransferSyntaxUID = ExplicitVRLittleEndian
    ds = FileDataset(str(out), {}, file_meta=meta, preamble=b"\0" * 128)
    ds.PatientName = "Test^Name"
    ds.PatientID = "123"
    ds.Rows, ds.Columns, ds.BitsAllocated, ds.BitsStored, ds.HighBit = 2, 2, 8, 8, 7
    ds.SamplesPerPixel, ds.PixelRepresentation, ds.PhotometricInterpretation = 1, 0, "MONOCHROME2"
    ds.PixelData = bytes([0, 64, 128, 255])
    ds.save_as(str(out), enforce_file_format=True)


def py_gzip(out: Path) -> None:
    import gzip
    out.write_bytes(gzip.compress(b"hello gzip from python\n" * 20, mtime=0))


def py_zip(method: int):
    def write(out: Path) -> None:
        import zipfile
        with zipfile.ZipFile(out, "w", compression=method) as z:
            z.writestr("a.txt", "hello zip\n" * 10)
            z.writestr("dir/b.bin", bytes(range(50)))
            z.comment = b"made by zipfile"
    write.__doc__ = f"Python's zipfile, compression {method}"
    return write


def scapy_packet(build: Callable):
    """`build(scapy.all)` is the packet: a lambda of the recipe, whose line the manifest shows."""
    def write(out: Path) -> None:
        import types

        import scapy.all
        from scapy.layers.rtp import RTP
        out.write_bytes(scapy.all.raw(build(types.SimpleNamespace(**{**vars(scapy.all), "RTP": RTP}))))
    write.__doc__ = "scapy: raw(packet), packet from " + inspect.getsource(build).strip()
    return write


def scapy_pcap(out: Path) -> None:
    from scapy.all import DNS, DNSQR, ICMP, IP, TCP, UDP, Ether, wrpcap
    wrpcap(str(out), [Ether() / IP(dst="127.0.0.1") / ICMP(),
                      Ether() / IP(dst="127.0.0.1") / TCP(dport=80, flags="S"),
                      Ether() / IP(dst="127.0.0.1") / UDP(dport=53) / DNS(qd=DNSQR(qname="example.com"))])


def py_tls_client_hello(out: Path) -> None:
    import ssl
    context = ssl.create_default_context()
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    conn = context.wrap_bio(incoming, outgoing, server_hostname="example.com")
    try:
        conn.do_handshake()
    except ssl.SSLWantReadError:
        pass
    record = outgoing.read()
    out.write_bytes(record[5 + 4:])  # the ClientHello's body: after the record's and handshake's headers


def py_msgpack(value):
    def write(out: Path) -> None:
        import msgpack
        out.write_bytes(msgpack.packb(value))
    write.__doc__ = f"msgpack.packb({value!r})"
    return write


def py_bson(out: Path) -> None:
    import datetime

    import bson
    out.write_bytes(bson.encode({"name": "x", "n": 42, "big": 2**40, "pi": 3.25, "ok": True, "none": None,
                                 "list": [1, "two", 3.0], "sub": {"a": b"\x00\x01"},
                                 "when": datetime.datetime(2020, 1, 2, tzinfo=datetime.UTC)}))


def py_bson_small(out: Path) -> None:
    import bson
    out.write_bytes(bson.encode({"hello": "world"}))


def py_protobuf(out: Path) -> None:
    from google.protobuf import descriptor_pb2
    proto = descriptor_pb2.FileDescriptorProto()
    descriptor_pb2.DESCRIPTOR.CopyToProto(proto)  # descriptor.proto describing itself
    message = descriptor_pb2.FileDescriptorProto(name="t.proto", package="t", syntax="proto3")
    message.message_type.add(name="M").field.add(name="id", number=1, type=5, label=1)
    out.write_bytes(message.SerializeToString())


def py_protobuf_timestamp(out: Path) -> None:
    from google.protobuf import timestamp_pb2
    out.write_bytes(timestamp_pb2.Timestamp(seconds=1700000000, nanos=123456789).SerializeToString())


def py_pickle(protocol: int):
    def write(out: Path) -> None:
        import pickle
        out.write_bytes(pickle.dumps({"a": [1, 2.5, "three", b"four", None, True], "b": (1, 2), "c": 2**70},
                                     protocol=protocol))
    write.__doc__ = f"pickle.dumps(..., protocol={protocol})"
    return write


def py_varint(value: int):
    def write(out: Path) -> None:
        from google.protobuf.internal import encoder
        out.write_bytes(encoder._VarintBytes(value))
    write.__doc__ = f"protobuf's varint encoder: {value}"
    return write


def py_shapefile(suffix: str, kind: str):
    def write(out: Path) -> None:
        import shapefile
        base = out.with_suffix("")
        with shapefile.Writer(str(base)) as w:
            w.field("name", "C")
            if kind == "point":
                w.point(1.5, 2.5)
                w.record("a")
                w.point(-3, 4)
                w.record("b")
            else:
                w.poly([[[0, 0], [0, 1], [1, 1], [0, 0]]])
                w.record("p")
        for ext in (".shp", ".shx", ".dbf"):
            if ext != suffix:
                Path(str(base) + ext).unlink()
    write.__doc__ = f"pyshp: a {kind} shapefile, its {suffix}"
    return write


def py_nbt(out: Path) -> None:
    import nbtlib
    from nbtlib.tag import Byte, Compound, Double, Int, List, Long, String
    nbtlib.File({"name": String("test"), "n": Int(7), "big": Long(2**40), "d": Double(0.5), "b": Byte(1),
                 "l": List[Int]([1, 2, 3]), "sub": Compound({"x": String("y")})}).save(str(out), gzipped=False)


def py_mcap(out: Path) -> None:
    from mcap.writer import Writer
    with open(out, "wb") as f:
        w = Writer(f)
        w.start(profile="", library="test")
        schema = w.register_schema(name="s", encoding="jsonschema", data=b"{}")
        channel = w.register_channel(topic="/t", message_encoding="json", schema_id=schema)
        for i in range(3):
            w.add_message(channel_id=channel, log_time=i, publish_time=i, sequence=i, data=b'{"i": %d}' % i)
        w.finish()


def py_gltf(out: Path) -> None:
    import struct

    import pygltflib
    points = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0)
    gltf = pygltflib.GLTF2(
        scene=0, scenes=[pygltflib.Scene(nodes=[0])], nodes=[pygltflib.Node(mesh=0)],
        meshes=[pygltflib.Mesh(primitives=[pygltflib.Primitive(attributes=pygltflib.Attributes(POSITION=0))])],
        accessors=[pygltflib.Accessor(bufferView=0, componentType=pygltflib.FLOAT, count=3, type=pygltflib.VEC3,
                                      max=[1, 1, 0], min=[0, 0, 0])],
        bufferViews=[pygltflib.BufferView(buffer=0, byteLength=len(points), target=pygltflib.ARRAY_BUFFER)],
        buffers=[pygltflib.Buffer(byteLength=len(points))])
    gltf.set_binary_blob(points)
    gltf.save_binary(str(out))


def py_ttf_subset(font: str, text: str):
    def write(out: Path) -> None:
        from fontTools import subset
        subset.main([font, f"--text={text}", f"--output-file={out}"])
    write.__doc__ = f"fonttools: {font} subset to {text!r}"
    return write


def py_y4m_ivf(out: Path) -> None:
    import subprocess
    frames = b"".join(b"FRAME\n" + bytes((i * 7 + f) % 256 for i in range(16 * 16)) + bytes([128]) * 128
                      for f in range(2))
    y4m = out.with_suffix(".y4m")
    y4m.write_bytes(b"YUV4MPEG2 W16 H16 F25:1 Ip A1:1 C420jpeg\n" + frames)
    subprocess.run(["vpxenc", "--codec=vp8", "--ivf", "-q", "-o", str(out), str(y4m)], check=True)
    y4m.unlink()


DTS = ("/dts-v1/; / { model = \"test\"; compatible = \"test,board\"; #address-cells = <1>; #size-cells = <1>; "
       "memory@0 { device_type = \"memory\"; reg = <0x0 0x1000>; }; chosen { bootargs = \"console=ttyS0\"; }; };")
C_SOURCE = "int answer(int x) { return x * 42; } const char *name = \"logcodec\"; int counter = 3;"
JAVA = ("public class Hello implements Runnable { static final long BIG = 1L << 40; double d = 1.5; "
        "public void run() { System.out.println(\"hi \" + BIG + d); } "
        "public static void main(String[] a) { new Hello().run(); } }")
UTMP = ("[7] [01234] [ts/0] [user    ] [pts/0       ] [host.example] [127.0.0.1      ] [2023-01-02T03:04:05,000000+00:00]\\n"
        "[8] [01234] [ts/0] [        ] [pts/0       ] [            ] [0.0.0.0        ] [2023-01-02T04:05:06,000000+00:00]\\n")
PO = 'msgid ""\\nmsgstr "Content-Type: text/plain; charset=UTF-8\\\\n"\\n\\nmsgid "hello"\\nmsgstr "bonjour"\\n\\nmsgid "world"\\nmsgstr "monde"\\n'

RECIPES = [
    # images
    Recipe("image/png", "imagemagick-gradient.png", "imagemagick", "convert -size 6x4 gradient:red-blue {out}"),
    Recipe("image/png", "imagemagick-gray-text.png", "imagemagick",
           "convert -size 5x5 xc:gray50 -set comment 'a comment' -define png:include-chunk=tEXt,gAMA {out}"),
    Recipe("image/png", "pillow-rgb.png", "pillow", py=pillow("RGB", (3, 2), "PNG")),
    Recipe("image/png", "pillow-rgba.png", "pillow", py=pillow("RGBA", (2, 2), "PNG")),
    Recipe("image/png", "pillow-palette.png", "pillow", py=pillow("P", (4, 4), "PNG", transparency=0)),
    Recipe("image/gif", "imagemagick.gif", "imagemagick", "convert -size 4x4 gradient:white-black {out}"),
    Recipe("image/gif", "imagemagick-anim.gif", "imagemagick", "convert -delay 10 -size 3x3 xc:red xc:blue -loop 0 {out}"),
    Recipe("image/gif", "pillow.gif", "pillow", py=pillow("P", (5, 3), "GIF")),
    Recipe("image/bmp", "imagemagick-bmp3.bmp", "imagemagick", "convert -size 3x2 gradient:red-blue BMP3:{out}"),
    Recipe("image/bmp", "imagemagick-bmp4.bmp", "imagemagick", "convert -size 3x2 gradient:red-blue BMP:{out}"),
    Recipe("image/bmp", "pillow-rgb.bmp", "pillow", py=pillow("RGB", (3, 3), "BMP")),
    Recipe("image/jpeg", "imagemagick.jpg", "imagemagick", "convert -size 8x8 gradient:red-blue -quality 80 {out}"),
    Recipe("image/jpeg", "pillow.jpg", "pillow", py=pillow("RGB", (8, 8), "JPEG", quality=50)),
    Recipe("image/jpeg", "pillow-gray-progressive.jpg", "pillow", py=pillow("L", (8, 8), "JPEG", progressive=True)),
    Recipe("image/ico", "imagemagick.ico", "imagemagick", "convert -size 16x16 gradient:red-blue {out}"),
    Recipe("image/ico", "pillow.ico", "pillow", py=pillow("RGBA", (16, 16), "ICO", sizes=[(16, 16)])),
    Recipe("image/tga", "imagemagick.tga", "imagemagick", "convert -size 4x3 gradient:red-blue {out}"),
    Recipe("image/tga", "pillow-rle.tga", "pillow", py=pillow("RGB", (4, 3), "TGA", compression="tga_rle")),
    Recipe("image/tga", "pillow-gray.tga", "pillow", py=pillow("L", (3, 3), "TGA")),
    Recipe("image/pcx", "imagemagick.pcx", "imagemagick", "convert -size 4x3 gradient:red-blue {out}"),
    Recipe("image/pcx", "pillow-rgb.pcx", "pillow", py=pillow("RGB", (5, 2), "PCX")),
    Recipe("image/pcx", "pillow-palette.pcx", "pillow", py=pillow("P", (4, 4), "PCX")),
    Recipe("image/pcx_dcx", "imagemagick.dcx", "imagemagick", "convert -size 3x3 xc:red xc:blue DCX:{out}"),
    Recipe("image/xwd", "imagemagick.xwd", "imagemagick", "convert -size 3x2 gradient:red-blue {out}"),
    Recipe("image/xwd", "imagemagick-gray.xwd", "imagemagick", "convert -size 2x2 xc:gray50 -type grayscale {out}"),
    Recipe("image/exif", "pillow.exif", "pillow", py=py_exif),
    Recipe("image/icc_4", "lcms2-srgb.icc", "pillow", py=py_icc("sRGB")),
    Recipe("image/icc_4", "lcms2-lab.icc", "pillow", py=py_icc("LAB")),
    Recipe("image/icc_4", "lcms2-xyz.icc", "pillow", py=py_icc("XYZ")),
    Recipe("image/dicom", "pydicom.dcm", "pydicom", py=py_dicom),
    # sound
    Recipe("media/wav", "sox-sine.wav", "sox", "sox -n -r 8000 -b 16 {out} synth 0.005 sine 440"),
    Recipe("media/wav", "sox-float.wav", "sox", "sox -n -r 8000 -e floating-point -b 32 -c 2 {out} synth 0.002 sine 300"),
    Recipe("media/wav", "python-wave.wav", "python", py=py_wave),
    Recipe("media/au", "sox.au", "sox", "sox -n -r 8000 -b 16 {out} synth 0.005 sine 440"),
    Recipe("media/au", "sox-ulaw.au", "sox", "sox -n -r 8000 -e u-law {out} synth 0.005 sine 440"),
    Recipe("media/au", "python-sunau.au", "python", py=py_sunau),
    Recipe("media/ogg", "sox-vorbis.ogg", "sox", "sox -n -r 8000 -c 1 {out} synth 0.01 sine 440"),
    Recipe("media/ogg", "oggenc.ogg", "oggenc", "sox -n -r 8000 -b 16 in.wav synth 0.01 sine 300 && oggenc -Q -o {out} in.wav"),
    Recipe("media/ogg", "flac.oga", "flac", "sox -n -r 8000 -b 16 in.wav synth 0.01 sine 300 && flac -s --ogg -o {out} in.wav"),
    Recipe("media/creative_voice_file", "sox.voc", "sox", "sox -n -r 8000 -b 8 {out} synth 0.005 sine 440"),
    Recipe("media/creative_voice_file", "sox-16bit.voc", "sox", "sox -n -r 8000 -b 16 {out} synth 0.003 sine 440"),
    Recipe("media/standard_midi_file", "mido-type1.mid", "mido", py=py_midi),
    Recipe("media/standard_midi_file", "mido-type0.mid", "mido", py=py_midi_type0),
    Recipe("media/id3v1_1", "mutagen-v1.mp3", "mutagen", py=id3(3, 2)),
    Recipe("media/id3v2_3", "mutagen-v23.mp3", "mutagen", py=id3(3, 0)),
    Recipe("media/id3v2_4", "mutagen-v24.mp3", "mutagen", py=id3(4, 0)),
    Recipe("media/vp8_duck_ivf", "vpxenc.ivf", "vpxenc", py=py_y4m_ivf),
    Recipe("media/stl", "numpy-stl.stl", "numpy-stl", py=py_stl),
    # archives
    Recipe("archive/gzip", "gzip-n.gz", "gzip", "printf 'hello gzip\\n%.0s' $(seq 30) > hello.txt && gzip -9 -c hello.txt > {out}"),
    Recipe("archive/gzip", "gzip-name.gz", "gzip", "printf 'abc' > name.txt && touch -d 2020-01-01 name.txt && gzip -c -N name.txt > {out}"),
    Recipe("archive/gzip", "python-gzip.gz", "python", py=py_gzip),
    Recipe("archive/zip", "infozip.zip", "zip", "printf 'hello zip\\n' > a.txt && mkdir d && printf 'x' > d/b && zip -q -X -r {out} a.txt d"),
    Recipe("archive/zip", "python-stored.zip", "python", py=py_zip(0)),
    Recipe("archive/zip", "python-deflated.zip", "python", py=py_zip(8)),
    Recipe("archive/zip", "7z.zip", "7z", "printf 'hello 7z\\n' > a.txt && 7z a -tzip -bd -bso0 {out} a.txt"),
    Recipe("archive/cpio_old_le", "cpio-bin.cpio", "cpio", "printf 'hello\\n' > a && mkdir d && printf 'xy' > d/b && printf 'a\\nd\\nd/b\\n' | cpio -o -H bin --quiet > {out}"),
    Recipe("archive/android_img", "mkbootimg.img", "mkbootimg",
           "printf 'kernel' > k && printf 'ramdisk' > r && mkbootimg --kernel k --ramdisk r --pagesize 2048 --cmdline 'console=ttyS0' -o {out}"),
    Recipe("archive/android_sparse", "img2simg.simg", "img2simg",
           "head -c 8192 /dev/zero > raw && printf 'data' >> raw && head -c 12284 /dev/zero >> raw && img2simg raw {out}"),
    # executables
    Recipe("executable/elf", "gcc-x86_64.o", "gcc", f"printf '%s' '{C_SOURCE}' > a.c && gcc -Os -c a.c -o {{out}}"),
    Recipe("executable/elf", "gcc-i386.o", "gcc", f"printf '%s' '{C_SOURCE}' > a.c && gcc -m32 -Os -c a.c -o {{out}}"),
    Recipe("executable/elf", "gcc-shared.so", "gcc", f"printf '%s' '{C_SOURCE}' > a.c && gcc -Os -s -shared -fPIC a.c -o {{out}}"),
    Recipe("executable/microsoft_pe", "mingw-x86_64.exe", "mingw-w64",
           "printf 'int main(void){return 42;}' > a.c && x86_64-w64-mingw32-gcc -Os -s a.c -o {out}"),
    Recipe("executable/microsoft_pe", "mingw-i686.dll", "mingw-w64",
           f"printf '%s' '{C_SOURCE}' > a.c && i686-w64-mingw32-gcc -Os -s -shared -nostdlib a.c -o {{out}}"),
    Recipe("executable/dos_mz", "mingw-x86_64.exe", "mingw-w64",
           "printf 'int main(void){return 42;}' > a.c && x86_64-w64-mingw32-gcc -Os -s a.c -o {out}"),
    Recipe("executable/dos_mz", "mingw-i686.dll", "mingw-w64",
           f"printf '%s' '{C_SOURCE}' > a.c && i686-w64-mingw32-gcc -Os -s -shared -nostdlib a.c -o {{out}}"),
    Recipe("executable/java_class", "javac-hello.class", "javac", f"printf '%s' '{JAVA}' > Hello.java && javac Hello.java && cp Hello.class {{out}}"),
    Recipe("executable/java_class", "javac-release8.class", "javac",
           "printf 'interface Shape { double area(); }' > Shape.java && javac --release 8 Shape.java && cp Shape.class {out}"),
    # file systems and disks
    Recipe("filesystem/ext2", "mke2fs-64k.img", "mke2fs",
           "mkdir d && printf 'hello ext2\\n' > d/a.txt && mke2fs -q -t ext2 -b 1024 -N 16 -d d -E root_owner=0:0 {out} 64"),
    Recipe("filesystem/iso9660", "genisoimage.iso", "genisoimage",
           "mkdir d && printf 'hello iso\\n' > d/a.txt && genisoimage -quiet -no-pad -V TEST -o {out} d"),
    Recipe("filesystem/iso9660", "genisoimage-rr-joliet.iso", "genisoimage",
           "mkdir -p d/sub && printf 'x' > d/sub/b.txt && genisoimage -quiet -no-pad -R -J -V RRJ -o {out} d"),
    Recipe("filesystem/vfat", "mkfs-fat12.img", "mkfs.vfat", "mkfs.vfat -C -n TEST {out} 64 > /dev/null"),
    Recipe("filesystem/vfat", "mkfs-fat12-2fats-s1.img", "mkfs.vfat", "mkfs.vfat -C -s 1 -S 512 -f 2 -i 12345678 {out} 100 > /dev/null"),
    Recipe("filesystem/mbr_partition_table", "sfdisk.mbr", "sfdisk",
           "truncate -s 64K {out} && printf 'label: dos\\nlabel-id: 0x12345678\\nstart=2, size=60, type=83, bootable\\nstart=64, size=60, type=c\\n' | sfdisk -q {out}"),
    Recipe("filesystem/gpt_partition_table", "sgdisk.gpt", "sgdisk",
           "truncate -s 64K {out} && sgdisk -a 1 -n 1:34:60 -t 1:8300 -c 1:data -n 2:61:80 -t 2:ef00 -U 11111111-2222-3333-4444-555555555555 {out} > /dev/null"),
    Recipe("filesystem/cramfs", "mkfs-cramfs.img", "mkfs.cramfs",
           "mkdir -p d/sub && printf 'hello cramfs\\n' > d/a.txt && printf 'x' > d/sub/b && mkfs.cramfs -n TEST d {out} > /dev/null"),
    Recipe("filesystem/vdi", "qemu-img.vdi", "qemu-img", "qemu-img create -q -f vdi {out} 1M"),
    Recipe("filesystem/vmware_vmdk", "qemu-img.vmdk", "qemu-img", "qemu-img create -q -f vmdk {out} 1M"),
    Recipe("firmware/uimage", "mkimage-kernel.uimg", "mkimage",
           "printf 'kernel bytes' > k && mkimage -A arm -O linux -T kernel -C none -a 0x8000 -e 0x8000 -n test -d k {out} > /dev/null"),
    Recipe("firmware/uimage", "mkimage-script.uimg", "mkimage", "printf 'echo hi\\n' > s && mkimage -T script -C none -n boot -d s {out} > /dev/null"),
    # fonts
    Recipe("font/ttf", "dejavu-sans-subset.ttf", "fonttools", py=py_ttf_subset("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "Hi")),
    Recipe("font/ttf", "dejavu-mono-subset.ttf", "fonttools",
           py=py_ttf_subset("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", "0123")),
    Recipe("font/pcf_font", "xfonts-base-micro.pcf", "xfonts-base", "gunzip -c /usr/share/fonts/X11/misc/micro.pcf.gz > {out}"),
    Recipe("font/pcf_font", "bdftopcf.pcf", "bdftopcf",
           "printf 'STARTFONT 2.1\\nFONT tiny\\nSIZE 8 75 75\\nFONTBOUNDINGBOX 2 2 0 0\\nSTARTPROPERTIES 2\\nFONT_ASCENT 2\\nFONT_DESCENT 0\\nENDPROPERTIES\\nCHARS 1\\n"
           "STARTCHAR A\\nENCODING 65\\nSWIDTH 500 0\\nDWIDTH 2 0\\nBBX 2 2 0 0\\nBITMAP\\n80\\n40\\nENDCHAR\\nENDFONT\\n' > t.bdf && bdftopcf -o {out} t.bdf"),
    Recipe("font/grub2_font", "grub-mkfont.pf2", "grub-mkfont",
           "grub-mkfont -s 8 -r 0x41-0x43 -o {out} /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    # hardware, logs, machine code
    Recipe("hardware/dtb", "dtc.dtb", "dtc", f"printf '%s' '{DTS}' > a.dts && dtc -q -I dts -O dtb -o {{out}} a.dts"),
    Recipe("hardware/dtb", "dtc-reserved.dtb", "dtc", f"printf '%s' '{DTS}' > a.dts && dtc -q -I dts -O dtb -R 2 -p 16 -o {{out}} a.dts"),
    Recipe("log/glibc_utmp", "utmpdump.utmp", "utmpdump", f"printf '{UTMP}' | utmpdump -r -o {{out}} 2> /dev/null"),
    Recipe("log/mcap", "mcap-python.mcap", "mcap", py=py_mcap),
    Recipe("machine_code/code_6502", "xa.bin", "xa",
           "printf 'lda #$01\\nsta $0200\\nldx #$10\\nloop: dex\\nbne loop\\njmp ($fffc)\\nrts\\n' > a.s && xa -o {out} a.s"),
    # network
    Recipe("network/pcap", "scapy.pcap", "scapy", py=scapy_pcap),
    Recipe("network/pcap", "tcpdump-rewritten.pcap", "tcpdump", "{python} -c 'from tests.gallery.make_files import scapy_pcap; "
           "from pathlib import Path; scapy_pcap(Path(\"in.pcap\"))' && tcpdump -q -r in.pcap -w {out} 2> /dev/null"),
    Recipe("network/ethernet_frame", "scapy-icmp.bin", "scapy", py=scapy_packet(lambda s: s.Ether(src='00:11:22:33:44:55', dst='66:77:88:99:aa:bb')/s.IP(src='10.0.0.1', dst='10.0.0.2')/s.ICMP())),
    Recipe("network/ethernet_frame", "scapy-ipv6-udp.bin", "scapy", py=scapy_packet(lambda s: s.Ether()/s.IPv6(src='::1', dst='::2')/s.UDP(sport=1, dport=2)/b'hi')),
    Recipe("network/ipv4_packet", "scapy-tcp.bin", "scapy", py=scapy_packet(lambda s: s.IP(src='10.0.0.1', dst='10.0.0.2', id=7)/s.TCP(sport=1234, dport=80, flags='S', options=[('MSS', 1460)]))),
    Recipe("network/ipv4_packet", "scapy-udp-dns.bin", "scapy", py=scapy_packet(lambda s: s.IP(src='10.0.0.1', dst='10.0.0.2')/s.UDP(sport=5353, dport=53)/s.DNS(qd=s.DNSQR(qname='example.com')))),
    Recipe("network/ipv4_packet", "scapy-icmp-options.bin", "scapy", py=scapy_packet(lambda s: s.IP(src='1.2.3.4', dst='5.6.7.8', options=b'\x01\x01\x01\x00')/s.ICMP(type=8, id=1, seq=2)/b'ping')),
    Recipe("network/ipv6_packet", "scapy-udp.bin", "scapy", py=scapy_packet(lambda s: s.IPv6(src='fe80::1', dst='ff02::1')/s.UDP(sport=546, dport=547)/b'x')),
    Recipe("network/ipv6_packet", "scapy-tcp.bin", "scapy", py=scapy_packet(lambda s: s.IPv6(src='::1', dst='::1')/s.TCP(sport=1, dport=2))),
    Recipe("network/tcp_segment", "scapy-syn.bin", "scapy", py=scapy_packet(lambda s: s.TCP(sport=1234, dport=80, seq=1, flags='S', options=[('MSS', 1460), ('NOP', None), ('WScale', 7)]))),
    Recipe("network/tcp_segment", "scapy-data.bin", "scapy", py=scapy_packet(lambda s: s.TCP(sport=80, dport=1234, seq=100, ack=2, flags='PA')/b'hello')),
    Recipe("network/udp_datagram", "scapy.bin", "scapy", py=scapy_packet(lambda s: s.UDP(sport=1000, dport=2000)/b'payload')),
    Recipe("network/udp_datagram", "scapy-empty.bin", "scapy", py=scapy_packet(lambda s: s.UDP(sport=53, dport=53))),
    Recipe("network/icmp_packet", "scapy-echo.bin", "scapy", py=scapy_packet(lambda s: s.ICMP(type=8, code=0, id=1, seq=1)/b'abcd')),
    Recipe("network/icmp_packet", "scapy-unreachable.bin", "scapy", py=scapy_packet(lambda s: s.ICMP(type=3, code=3)/s.IP(src='1.1.1.1', dst='2.2.2.2')/s.UDP())),
    Recipe("network/dns_packet", "scapy-query.bin", "scapy", py=scapy_packet(lambda s: s.DNS(id=1, rd=1, qd=s.DNSQR(qname='example.com', qtype='A')))),
    Recipe("network/dns_packet", "scapy-answer.bin", "scapy", py=scapy_packet(lambda s: s.DNS(id=2, qr=1, qd=s.DNSQR(qname='a.example'), an=s.DNSRR(rrname='a.example', rdata='1.2.3.4', ttl=60)))),
    Recipe("network/rtp_packet", "scapy.bin", "scapy", py=scapy_packet(lambda s: s.RTP(version=2, payload_type=0, sequence=1, timestamp=160, sourcesync=0x1234)/(b'\xff' * 8))),
    Recipe("network/websocket", "websockets-fragmented.bin", "websockets", py=websocket_frames(False)),
    Recipe("network/websocket", "websockets-masked.bin", "websockets", py=websocket_frames(True)),
    Recipe("windows/windows_lnk_file", "pylnk3.lnk", "pylnk3", py=py_lnk),
    Recipe("network/tls_client_hello", "python-ssl.bin", "python", py=py_tls_client_hello),
    # security
    Recipe("security/ssh_public_key", "ssh-keygen-ed25519.bin", "ssh-keygen",
           "ssh-keygen -q -t ed25519 -N '' -f k && cut -d' ' -f2 k.pub | base64 -d > {out}"),
    Recipe("security/ssh_public_key", "ssh-keygen-rsa.bin", "ssh-keygen",
           "ssh-keygen -q -t rsa -b 1024 -N '' -f k && cut -d' ' -f2 k.pub | base64 -d > {out}"),
    Recipe("security/ssh_public_key", "ssh-keygen-ecdsa.bin", "ssh-keygen",
           "ssh-keygen -q -t ecdsa -b 256 -N '' -f k && cut -d' ' -f2 k.pub | base64 -d > {out}"),
    Recipe("security/openpgp_message", "gpg-pubkey.gpg", "gpg",
           "GNUPGHOME=$PWD/g && mkdir -m 700 g && gpg -q --homedir g --batch --passphrase '' --quick-gen-key 'Test <t@example.com>' ed25519 sign never 2> /dev/null && gpg -q --homedir g --export > {out}"),
    Recipe("security/efivar_signature_list", "efitools.esl", "cert-to-efi-sig-list",
           "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=test -days 1 -keyout k.pem -out c.pem 2> /dev/null && cert-to-efi-sig-list -g 11111111-2222-3333-4444-555555555555 c.pem {out}"),
    Recipe("serialization/asn1/asn1_der", "openssl-cert.der", "openssl",
           "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=test -days 1 -keyout k.pem -outform DER -out {out} 2> /dev/null"),
    Recipe("serialization/asn1/asn1_der", "openssl-key.der", "openssl",
           "openssl genpkey -algorithm ed25519 -outform DER -out {out}"),
    # serialization
    Recipe("serialization/msgpack", "msgpack-map.bin", "msgpack", py=py_msgpack({'a': 1, 'b': [1, 2, 3], 'c': 'text', 'd': -5})),
    Recipe("serialization/msgpack", "msgpack-int.bin", "msgpack", py=py_msgpack(2**40)),
    Recipe("serialization/msgpack", "msgpack-float.bin", "msgpack", py=py_msgpack(1.5)),
    Recipe("serialization/msgpack", "msgpack-array.bin", "msgpack", py=py_msgpack([None, True, False, -1, 300, 'x' * 40, b'\x00\x01'])),
    Recipe("serialization/bson", "pymongo.bson", "pymongo", py=py_bson),
    Recipe("serialization/bson", "pymongo-small.bson", "pymongo", py=py_bson_small),
    Recipe("serialization/google_protobuf", "protobuf-descriptor.bin", "protobuf", py=py_protobuf),
    Recipe("serialization/google_protobuf", "protobuf-timestamp.bin", "protobuf", py=py_protobuf_timestamp),
    Recipe("serialization/python_pickle", "pickle-p2.pkl", "python", py=py_pickle(2)),
    Recipe("serialization/python_pickle", "pickle-p4.pkl", "python", py=py_pickle(4)),
    Recipe("serialization/python_pickle", "pickle-p5.pkl", "python", py=py_pickle(5)),
    Recipe("serialization/ruby_marshal", "ruby-hash.bin", "ruby",
           "ruby -e 'File.binwrite(ARGV[0], Marshal.dump({\"a\" => [1, -2, 300, 2**40], :sym => nil, \"f\" => true}))' {out}"),
    Recipe("serialization/ruby_marshal", "ruby-string.bin", "ruby", "ruby -e 'File.binwrite(ARGV[0], Marshal.dump(\"hello\"))' {out}"),
    Recipe("serialization/php_serialized_value", "php-array.bin", "php",
           "php -r 'file_put_contents($argv[1], serialize([\"a\" => 1, \"b\" => [true, null, 1.5, \"x\"]]));' {out}"),
    Recipe("serialization/php_serialized_value", "php-string.bin", "php", "php -r 'file_put_contents($argv[1], serialize(\"hello\"));' {out}"),
    Recipe("common/vlq_base128_le", "protobuf-300.bin", "protobuf", py=py_varint(300)),
    Recipe("common/vlq_base128_le", "protobuf-big.bin", "protobuf", py=py_varint(2**50 + 12345)),
    Recipe("database/sqlite3", "sqlite3-cli.db", "sqlite3",
           "sqlite3 {out} 'create table t(a integer primary key, b text); insert into t(b) values (\"x\"), (\"y\");'"),
    Recipe("database/gettext_mo", "msgfmt.mo", "msgfmt", f"printf '{PO}' > a.po && msgfmt -o {{out}} a.po"),
    Recipe("windows/windows_resource_file", "windres.res", "windres",
           "printf '1 VERSIONINFO\\nFILEVERSION 1,2,3,4\\nBEGIN\\nEND\\nSTRINGTABLE\\nBEGIN\\n1 \"hello\"\\nEND\\n' > a.rc && x86_64-w64-mingw32-windres a.rc -O res -o {out}"),
    Recipe("geospatial/shapefile_main", "pyshp-points.shp", "pyshp", py=py_shapefile(".shp", "point")),
    Recipe("geospatial/shapefile_main", "pyshp-polygon.shp", "pyshp", py=py_shapefile(".shp", "polygon")),
    Recipe("geospatial/shapefile_index", "pyshp-points.shx", "pyshp", py=py_shapefile(".shx", "point")),
    Recipe("geospatial/shapefile_index", "pyshp-polygon.shx", "pyshp", py=py_shapefile(".shx", "polygon")),
    Recipe("game/minecraft_nbt", "nbtlib.nbt", "nbtlib", py=py_nbt),
    Recipe("3d/gltf_binary", "pygltflib.glb", "pygltflib", py=py_gltf),
]


def version(writer: str) -> str:
    how = VERSIONS.get(writer, "")
    if isinstance(how, tuple):
        return importlib.metadata.version(how[1])
    if not how:
        return "unknown"
    out = subprocess.run(how, shell=True, check=False, capture_output=True, text=True).stdout.strip()
    return out.splitlines()[0].strip() if out else "unknown"


def make(recipe: Recipe) -> Path:
    out = FILES / recipe.schema / recipe.name
    out.parent.mkdir(parents=True, exist_ok=True)
    out.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory(prefix="lc-make-") as tmp:
        if recipe.py is not None:
            cwd = os.getcwd()
            os.chdir(tmp)
            try:
                recipe.py(out)
            finally:
                os.chdir(cwd)
        else:
            env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
            cmd = recipe.sh.replace("{out}", str(out)).replace("{python}", sys.executable)
            subprocess.run(cmd, shell=True, check=True, cwd=tmp, env=env)
    return out


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m tests.gallery.make_files", description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="formats (image/png) or file names to make again")
    args = parser.parse_args(argv)
    entries = yaml.safe_load(MANIFEST.read_text()) if MANIFEST.is_file() else {}
    versions: dict[str, str] = {}
    failed = []
    for recipe in RECIPES:
        if args.only and recipe.schema not in args.only and recipe.name not in args.only:
            continue
        key = f"{recipe.schema}/{recipe.name}"
        try:
            out = make(recipe)
        except Exception as exc:  # noqa: BLE001 - a tool missing or failing: say which, go on
            failed.append(f"{key}: {exc}")
            continue
        if recipe.writer not in versions:
            versions[recipe.writer] = version(recipe.writer)
        entry = {"format": recipe.schema + ".ksy", "writer": f"{recipe.writer} {versions[recipe.writer]}",
                 "command": recipe.command(), "size": out.stat().st_size}
        if recipe.params:
            entry["params"] = recipe.params
        entries[key] = entry
    entries = {k: v for k, v in entries.items() if (FILES / k).is_file()}  # files removed since
    MANIFEST.write_text("# Per file of the corpus: its format (gallery schema), its writer and version, and the command or\n"
                        "# code that wrote it. Written by `python -m tests.gallery.make_files`.\n\n"
                        + yaml.safe_dump(dict(sorted(entries.items())), sort_keys=False, allow_unicode=True, width=120))
    for line in failed:
        print("failed:", line, file=sys.stderr)
    shutil.rmtree(FILES / "__pycache__", ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

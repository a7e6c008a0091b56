"""The shape of minicuda's cache entries (minicuda/cache_entry.py): an entry is used only
when its magic word, format number, producer (the minicuda, and LLVM, that wrote it),
key, length and checksum all agree; anything else is discarded with one warning line."""
import pytest

from minicuda.cache_entry import EntryFormat

ENTRIES = EntryFormat(b"MINICUDA-TEST", 3, "test cache", "payload", "another thing")
PRODUCER = "minicuda-9.9"
DATA = bytes(range(256)) * 4


def with_field(blob: bytes, index: int, value: bytes) -> bytes:
    head, _, data = blob.partition(b"\n")
    fields = head.split(b" ")
    fields[index] = value
    return b" ".join(fields) + b"\n" + data


SOUND = ENTRIES.header(PRODUCER, "k", DATA) + DATA
BROKEN = {
    "another magic word": (with_field(SOUND, 0, b"MINICUDA-JIT"), "not a minicuda test cache entry"),
    "another format": (with_field(SOUND, 1, b"2"), "written by minicuda-9.9 in format 2"),
    "another producer": (with_field(SOUND, 2, b"minicuda-0.1"), "written by minicuda-0.1 in format 3"),
    "another key": (with_field(SOUND, 3, b"k2"), "an entry for another thing"),
    "a wrong length": (with_field(SOUND, 4, b"7"), "1024 bytes of payload, not 7"),
    "a flipped byte": (SOUND[:-1] + bytes([SOUND[-1] ^ 1]), "checksum mismatch"),
    "no header line": (DATA, "not a minicuda test cache entry"),
}


def test_a_sound_entry_is_its_payload():
    assert ENTRIES.verified(SOUND, PRODUCER, "k") == (DATA, "")


@pytest.mark.parametrize("broken", list(BROKEN))
def test_a_broken_entry_says_what_is_wrong(broken):
    blob, why = BROKEN[broken]
    assert ENTRIES.verified(blob, PRODUCER, "k") == (None, why)


def test_a_broken_entry_is_discarded_with_one_warning(tmp_path, capsys):
    path = tmp_path / "k.test"
    path.write_bytes(BROKEN["another format"][0])
    data, why = ENTRIES.read(path, PRODUCER, "k")
    assert data is None
    ENTRIES.discard(path, why)
    assert not path.exists()
    assert capsys.readouterr().err == (f"minicuda: warning: discarding damaged test cache entry {path} "
                                       f"(written by minicuda-9.9 in format 2); compiling it again\n")


def test_a_missing_entry_is_no_warning_and_a_write_leaves_no_temporary_file(tmp_path):
    path = tmp_path / "sub" / "k.test"
    assert ENTRIES.read(path, PRODUCER, "k") == (None, "")
    ENTRIES.write(path, PRODUCER, "k", DATA)
    assert ENTRIES.read(path, PRODUCER, "k") == (DATA, "")
    assert [p.name for p in path.parent.iterdir()] == ["k.test"]

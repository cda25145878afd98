"""A board's Ed25519 key, its public key as one line, and signed payloads.

Each board has one private key in its state directory (:data:`KEY_FILE`), made
on first start.  Every JSON object a board publishes carries ``"sig"``: the
Ed25519 signature over :data:`DOMAIN`, the topic and the object's canonical JSON
without ``"sig"`` (sorted keys, no spaces, ASCII), so a signed message cannot be
moved to another topic or changed in any field.  A reader holding the sender's
:class:`PublicKey` checks it with :meth:`PublicKey.opened` before reading a field.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
    load_pem_private_key,
)

from tavla_pi.bounded import read_file
from tavla_pi.errors import BadInputError, ConfigError

KEY_FILE = "board-key.pem"
"""The private key's file in the state directory (PKCS#8 PEM, mode 0600)."""
PREFIX = "tavla-ed25519:"
"""What a public key's line starts with."""
DOMAIN = b"tavla-pi signed message 1\n"
"""Signed before the topic, so a signature means nothing to any other program."""
CLIENT_ID_DOMAIN = b"tavla-pi mqtt client id 1\n"
"""Hashed before the private key into the board's MQTT client id."""
CLIENT_ID_PREFIX = "tavla-"
CLIENT_ID_DIGITS = 16
"""Hex digits of the client id after its prefix (64 bits; 22 characters in all, within
MQTT 3.1.1's 23)."""
SIGNATURE = "sig"
"""The payload key that holds the signature (base64url, no padding)."""
_KEY_BYTES = 32
_CHECK_BYTES = 2
_KEY_FILE_LIMIT = 4096
_SIGNATURE_CHARS = 86


class KeyTextError(ConfigError):
    """A public key's text that is not a key this program printed."""


class SignatureError(BadInputError):
    """A payload without a valid signature by the key it must be signed with."""


@dataclass(frozen=True, slots=True)
class PublicKey:
    """A board's public key: what a friend or a club holds to check its messages."""

    raw: bytes

    @classmethod
    def parse(cls, text: str, where: str) -> PublicKey:
        """Read the line :attr:`text` gives (spaces, dashes and case ignored).

        Raises :class:`KeyTextError` naming ``where`` for anything else, a typo too.
        """
        body = "".join(text.split()).replace("-", "").lower()
        prefix = PREFIX.replace("-", "")
        if not body.startswith(prefix):
            raise KeyTextError(where, f"a board's key starts with {PREFIX!r}"
                               " (print it with 'tavla-pi key')")
        data = _base32(body[len(prefix):], where)
        raw, check = data[:_KEY_BYTES], data[_KEY_BYTES:]
        key = cls(raw)
        if (len(raw) != _KEY_BYTES or check != _check(raw)
                or key.text.replace("-", "") != body.replace("-", "")):
            raise KeyTextError(where, "the key is mistyped (its check does not match)")
        return key

    @property
    def text(self) -> str:
        """The key as one line to read out or paste: prefix, then base32 in groups."""
        digits = base64.b32encode(self.raw + _check(self.raw)).decode().rstrip("=").lower()
        groups = [digits[i:i + 5] for i in range(0, len(digits), 5)]
        return PREFIX + "-".join(groups)

    def opened(self, topic: str, data: dict[str, Any], where: str) -> dict[str, Any]:
        """``data`` without its signature, once the signature is checked.

        Raises :class:`SignatureError` naming ``where`` when it is missing, malformed
        or not made by this key for this topic and these fields.
        """
        signature = data.get(SIGNATURE)
        if not isinstance(signature, str) or len(signature) != _SIGNATURE_CHARS:
            raise SignatureError(where, f"no signature ({SIGNATURE!r})")
        body = {key: value for key, value in data.items() if key != SIGNATURE}
        try:
            sig = base64.urlsafe_b64decode(signature + "==")
            Ed25519PublicKey.from_public_bytes(self.raw).verify(sig, signed_bytes(topic, body))
        except (InvalidSignature, binascii.Error, ValueError):
            raise SignatureError(where, "the signature is not the board's key's") from None
        return body


class BoardKey:
    """This board's private key: it signs every payload the board publishes."""

    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._private = private
        raw = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        self.public = PublicKey(raw)

    @classmethod
    def load_or_make(cls, state_dir: Path) -> BoardKey:
        """The key in ``state_dir``, made there (mode 0600) if there is none yet."""
        path = state_dir / KEY_FILE
        if not path.exists():
            _write_new(path)
        try:
            private = load_pem_private_key(read_file(path, _KEY_FILE_LIMIT, "a key file",
                                                     ConfigError), None)
        except (ValueError, TypeError):
            raise ConfigError(str(path), "not a private key this program made") from None
        if not isinstance(private, Ed25519PrivateKey):
            raise ConfigError(str(path), "not an Ed25519 key")
        return cls(private)

    def client_id(self) -> str:
        """The board's MQTT client id: the same on every start (the broker keeps the board's
        session by it), and guessed by nobody without the private key (a client that takes
        it throws the board off the broker)."""
        raw = self._private.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
        digest = hashlib.sha256(CLIENT_ID_DOMAIN + raw).hexdigest()
        return CLIENT_ID_PREFIX + digest[:CLIENT_ID_DIGITS]

    def signed(self, topic: str, data: dict[str, Any]) -> dict[str, Any]:
        """``data`` with its signature for ``topic`` added."""
        body = {key: value for key, value in data.items() if key != SIGNATURE}
        signature = self._private.sign(signed_bytes(topic, body))
        return {**body, SIGNATURE: base64.urlsafe_b64encode(signature).decode().rstrip("=")}


def signed_bytes(topic: str, body: dict[str, Any]) -> bytes:
    """What a signature covers: the domain, the topic and the canonical JSON of ``body``."""
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False)
    return DOMAIN + topic.encode() + b"\n" + text.encode()


def _check(raw: bytes) -> bytes:
    return hashlib.sha256(raw).digest()[:_CHECK_BYTES]


def _base32(digits: str, where: str) -> bytes:
    padded = digits.upper() + "=" * (-len(digits) % 8)
    try:
        return base64.b32decode(padded)
    except binascii.Error:
        raise KeyTextError(where, "the key is mistyped (not base32)") from None


def _write_new(path: Path) -> None:
    """Make a key and write it so that only this user can read it, never half-written."""
    pem = Ed25519PrivateKey.generate().private_bytes(Encoding.PEM, PrivateFormat.PKCS8,
                                                     NoEncryption())
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".new")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(pem)
        out.flush()
        os.fsync(out.fileno())
    os.replace(partial, path)

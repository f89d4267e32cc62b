"""Declared secrets as the browser layer sees them: real values exist only in the vault and at the
moment the driver types them. The grammar, the vault and the redactor are owned by common/secrecy.py;
this module names them for browser code."""

from __future__ import annotations

from common.secrecy import REDACTED as REDACTED
from common.secrecy import SecretVault as SecretVault
from common.secrecy import UnknownSecret as UnknownSecret
from common.secrecy import placeholder as placeholder

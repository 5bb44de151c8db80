"""Exclusive create on S3: a PUT with ``If-None-Match: *``.

``pyarrow.fs`` has no conditional write (it ignores an ``If-None-Match``
metadata key and overwrites), so the ledger's "never rewritten" rule would be
a check-then-write there, which two concurrent runs can both pass. S3 (since
August 2024) and S3-compatible servers such as moto and MinIO accept
``If-None-Match: *`` on PutObject and answer 412 Precondition Failed when the
key exists: exactly one of two racing writers wins. We send that one request
through boto3, configured from the same warehouse URL and the same standard
AWS environment variables pyarrow reads (``AWS_ACCESS_KEY_ID``,
``AWS_SECRET_ACCESS_KEY``, ``AWS_ENDPOINT_URL_S3``, ``AWS_DEFAULT_REGION``),
so both talk to one server.
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import parse_qs, urlsplit

# S3 answers 409 ConditionalRequestConflict while another conditional write to
# the same key is in flight: wait for it to settle, then ask again.
_CONFLICT_RETRIES = 10
_CONFLICT_WAIT_SECONDS = 0.05


class S3ExclusiveWriter:
    """``create(path, body)``: write only if no object exists at ``path`` (``bucket/key``)."""

    def __init__(self, root: str) -> None:
        try:
            import boto3  # only deployments on S3 need it: the `s3` extra
        except ImportError as error:
            raise ImportError(
                "an s3:// warehouse writes its ledger through boto3, which is not installed: "
                "install the s3 extra (pip install 'reliability[s3]', or -e '.[s3]' from a checkout)"
            ) from error

        parts = urlsplit(root)
        query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
        options: dict[str, Any] = {}
        endpoint = query.get("endpoint_override")
        if endpoint:
            scheme = query.get("scheme", "https")
            options["endpoint_url"] = endpoint if "://" in endpoint else f"{scheme}://{endpoint}"
        if query.get("region"):
            options["region_name"] = query["region"]
        self.client = boto3.client("s3", **options)

    def create(self, path: str, body: bytes) -> bool:
        """True if written; False if an object already exists under ``path``."""
        from botocore.exceptions import ClientError

        bucket, _, key = path.partition("/")
        for _ in range(_CONFLICT_RETRIES):
            try:
                self.client.put_object(Bucket=bucket, Key=key, Body=body, IfNoneMatch="*")
                return True
            except ClientError as error:
                code = error.response.get("Error", {}).get("Code", "")
                status = error.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
                if code == "PreconditionFailed" or status == 412:
                    return False
                if code == "ConditionalRequestConflict" or status == 409:
                    time.sleep(_CONFLICT_WAIT_SECONDS)
                    continue
                raise
        raise RuntimeError(f"conditional write to s3://{path} kept conflicting with a concurrent writer")

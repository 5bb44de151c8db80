"""Machine-readable error bodies: ``{"error": {"code": ..., "message": ...}}``."""

from fastapi import HTTPException


class ApiError(HTTPException):
    """An HTTP error with a stable machine-readable code."""

    def __init__(
        self, status_code: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(status_code=status_code, detail={"code": code, "message": message}, headers=headers)
        self.code = code
        self.message = message


def not_found(what: str) -> ApiError:
    return ApiError(404, "not_found", f"{what} not found")

"""Tiny HTTP API for the island ferry timetable."""
from fastapi import FastAPI, HTTPException, Query

from settings import ALLOWED_ORIGINS, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, WELCOME_MESSAGE
from timetable import find_sailing, load_sailings

app = FastAPI(title="Ferry Timetable")


@app.get("/")
def root():
    return {"message": WELCOME_MESSAGE}


@app.get("/sailings")
def list_sailings(page: int = 1, size: int = Query(DEFAULT_PAGE_SIZE)):
    size = min(size, MAX_PAGE_SIZE)
    sailings = load_sailings()
    start = (page - 1) * size
    return {"page": page, "size": size, "items": sailings[start:start + size]}


@app.get("/sailings/{code}")
def get_sailing(code: str):
    sailing = find_sailing(code)
    if sailing is None:
        raise HTTPException(status_code=404, detail="No such sailing")
    return sailing


@app.get("/health")
def health():
    return {"ok": True, "origins": len(ALLOWED_ORIGINS)}

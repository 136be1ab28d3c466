import dataclasses


@dataclasses.dataclass
class Invoice:
    number: str
    total: float

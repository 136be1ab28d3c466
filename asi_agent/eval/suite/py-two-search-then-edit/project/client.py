from net.config import TIMEOUT

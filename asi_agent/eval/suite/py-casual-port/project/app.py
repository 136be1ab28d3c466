from settings import HOST, PORT

HOST = 'localhost'
PORT = 8088

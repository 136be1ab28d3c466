def home():
    return 'home'

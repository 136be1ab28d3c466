import os
import sys


def main():
    return sys.argv

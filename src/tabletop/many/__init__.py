"""many"""

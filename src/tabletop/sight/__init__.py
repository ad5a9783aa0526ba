"""sight"""

print("todo-sync: placeholder")

  DO I = 1, N
    A(I) = I
  END DO

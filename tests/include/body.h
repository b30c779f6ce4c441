C     Statements of PROGRAM INC (main.f), read through its INCLUDE.
      DO 10 I = 1, 10
         A(I) = X * I
   10 CONTINUE
      X = A(3) + A(10)

C     A program whose first loop is read from an INCLUDE file: the
C     references of body.h stand at its own lines, which main.f has too.
      PROGRAM INC
      REAL A(10), X, Y
      INTEGER I
      X = 1.0
      INCLUDE 'body.h'
      Y = X + 2.0
      DO 20 I = 1, 10
         A(I) = A(I) + Y
   20 CONTINUE
      PRINT *, Y, A(1), A(10)
      END
